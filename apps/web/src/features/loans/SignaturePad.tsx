import {
  type PointerEvent,
  type RefObject,
  useCallback,
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';

/** A point of a stroke, as a share of the box's width and height (so a resized box redraws the same). */
type Point = { x: number; y: number };

export type SignatureHandle = {
  /** The signature as a PNG (ink on a transparent ground), or null when nothing is signed. */
  toPng: () => Promise<Blob | null>;
  clear: () => void;
  /** Brings the box into view and focuses the keyboard's way to sign (a canvas takes no focus). */
  focus: () => void;
};

/** The width of the PNG sent; its height follows the box's 3:1 shape. */
const PNG_WIDTH = 900;

function draw(
  context: CanvasRenderingContext2D,
  width: number,
  height: number,
  strokes: readonly Point[][],
  typed: string,
  ink: string,
  font: string,
): void {
  context.clearRect(0, 0, width, height);
  context.strokeStyle = ink;
  context.fillStyle = ink;
  context.lineWidth = Math.max(2, width / 300);
  context.lineCap = 'round';
  context.lineJoin = 'round';
  for (const stroke of strokes) {
    const [first, ...rest] = stroke;
    if (!first) continue;
    context.beginPath();
    context.moveTo(first.x * width, first.y * height);
    if (rest.length === 0) context.lineTo(first.x * width + 0.1, first.y * height + 0.1);
    for (const p of rest) context.lineTo(p.x * width, p.y * height);
    context.stroke();
  }
  if (typed) {
    context.font = `italic ${Math.round(height * 0.4)}px ${font}`;
    context.textAlign = 'center';
    context.textBaseline = 'middle';
    context.fillText(typed, width / 2, height / 2, width * 0.9);
  }
}

/** The ink and font of the box: its CSS colour (a token) and font. */
function styleOf(element: HTMLElement | null): { ink: string; font: string } {
  const computed = element ? getComputedStyle(element) : null;
  return { ink: computed?.color ?? 'currentcolor', font: computed?.fontFamily ?? 'serif' };
}

/** Where a pointer is in the canvas, as a share of its width and height; null when it has no size. */
function pointIn(
  element: HTMLCanvasElement | null,
  event: { clientX: number; clientY: number },
): Point | null {
  if (!element) return null;
  const box = element.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) return null;
  return {
    x: Math.min(1, Math.max(0, (event.clientX - box.left) / box.width)),
    y: Math.min(1, Math.max(0, (event.clientY - box.top) / box.height)),
  };
}

/** The signature as a PNG of PNG_WIDTH, the box's shape (ink on a transparent ground). */
function toPng(
  element: HTMLCanvasElement | null,
  strokes: readonly Point[][],
  typed: string,
): Promise<Blob | null> {
  const ratio = element && element.clientWidth > 0 ? element.clientHeight / element.clientWidth : 1 / 3;
  const out = document.createElement('canvas');
  out.width = PNG_WIDTH;
  out.height = Math.round(PNG_WIDTH * ratio);
  const context = out.getContext('2d');
  if (!context) return Promise.resolve(null);
  const { ink, font } = styleOf(element);
  draw(context, out.width, out.height, strokes, typed, ink, font);
  return new Promise((resolve) => out.toBlob((blob) => resolve(blob), 'image/png'));
}

/**
 * Drawing with a pointer (mouse, finger, pen): a press starts a stroke, a move extends it, the
 * release ends it; `onStroke` hears each stroke that counts (a line, not a dot: a dot is dropped).
 */
function strokeHandlers(
  canvas: RefObject<HTMLCanvasElement | null>,
  strokes: RefObject<Point[][]>,
  drawing: RefObject<number | null>,
  redraw: () => void,
  onStroke: () => void,
) {
  return {
    onPointerDown: (event: PointerEvent<HTMLCanvasElement>) => {
      if (event.button !== 0 && event.pointerType === 'mouse') return;
      const p = pointIn(canvas.current, event);
      if (!p) return;
      event.preventDefault();
      event.currentTarget.setPointerCapture(event.pointerId);
      drawing.current = event.pointerId;
      strokes.current.push([p]);
      redraw();
    },
    onPointerMove: (event: PointerEvent<HTMLCanvasElement>) => {
      if (drawing.current !== event.pointerId) return;
      const stroke = strokes.current[strokes.current.length - 1];
      if (!stroke) return;
      const events = event.nativeEvent.getCoalescedEvents?.() ?? [event.nativeEvent];
      for (const e of events.length > 0 ? events : [event.nativeEvent]) {
        const p = pointIn(canvas.current, e);
        if (p) stroke.push(p);
      }
      redraw();
    },
    onPointerUp: (event: PointerEvent<HTMLCanvasElement>) => {
      if (drawing.current !== event.pointerId) return;
      drawing.current = null;
      const stroke = strokes.current[strokes.current.length - 1];
      // A signature is a line, not a dot: a stroke of one point does not count.
      if (stroke && stroke.length > 2) onStroke();
      else {
        strokes.current.pop();
        redraw();
      }
    },
    onPointerCancel: () => {
      drawing.current = null;
    },
  };
}

/**
 * The ink of the box: its strokes (drawn with Pointer Events; the box takes the touch instead of
 * scrolling) and the typed name, redrawn whenever the box changes size. `onStroke` hears each
 * stroke that counts (a line, not a dot).
 */
function useInk(typed: string, onStroke: () => void) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const strokes = useRef<Point[][]>([]);
  const drawing = useRef<number | null>(null);

  const redraw = useCallback(() => {
    const element = canvas.current;
    const context = element?.getContext('2d');
    if (!element || !context) return;
    const { ink, font } = styleOf(element);
    draw(context, element.width, element.height, strokes.current, typed, ink, font);
  }, [typed]);

  // The drawing buffer follows the box's size on screen (and the screen's pixel density).
  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const fit = () => {
      const ratio = window.devicePixelRatio || 1;
      const width = Math.round(element.clientWidth * ratio);
      const height = Math.round(element.clientHeight * ratio);
      if (width > 0 && (element.width !== width || element.height !== height)) {
        element.width = width;
        element.height = height;
      }
      redraw();
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(element);
    return () => observer.disconnect();
  }, [redraw]);

  const handlers = strokeHandlers(canvas, strokes, drawing, redraw, onStroke);
  const clear = () => {
    strokes.current = [];
    const element = canvas.current;
    element?.getContext('2d')?.clearRect(0, 0, element.width, element.height);
  };
  return { canvas, strokes, handlers, clear };
}

/** The keyboard's way to sign: type your full name and put it in the box. */
function TypedName({
  summary,
  onUse,
}: {
  summary: RefObject<HTMLElement | null>;
  onUse: (name: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [name, setName] = useState('');
  return (
    <details className="product-details loan-signature-typed">
      <summary ref={summary}>{t('loan.sign.keyboardTitle')}</summary>
      <p className="small muted">{t('loan.sign.keyboardText')}</p>
      <div className="field">
        <label htmlFor={`${id}-name`}>{t('loan.sign.name')}</label>
        <div className="field-row">
          <input
            id={`${id}-name`}
            name="signatureName"
            autoComplete="name"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
          <button
            type="button"
            className="button ghost small"
            disabled={name.trim().length < 2}
            onClick={() => onUse(name.trim())}
          >
            {t('loan.sign.useName')}
          </button>
        </div>
      </div>
    </details>
  );
}

/**
 * What is signed (strokes, or a name typed), the handle the form holds, and the ways to sign by
 * keyboard and to clear.
 */
function useSignature(handle: RefObject<SignatureHandle | null>, onChange: (signed: boolean) => void) {
  const keyboardWay = useRef<HTMLElement>(null);
  const [typed, setTyped] = useState('');
  const [signed, setSigned] = useState(false);
  const update = (next: boolean) => {
    setSigned(next);
    onChange(next);
  };
  const ink = useInk(typed, () => update(true));
  const clear = () => {
    ink.clear();
    setTyped('');
    update(false);
  };

  useImperativeHandle(handle, () => ({
    clear,
    focus: () => {
      ink.canvas.current?.scrollIntoView({ block: 'center' });
      keyboardWay.current?.focus({ preventScroll: true });
    },
    toPng: async () =>
      ink.strokes.current.length === 0 && !typed
        ? null
        : toPng(ink.canvas.current, ink.strokes.current, typed),
  }));
  const sign = (name: string) => {
    setTyped(name);
    update(true);
  };
  return { ink, signed, keyboardWay, clear, sign };
}

/**
 * The signature box (spec §5: the agreement is signed before submitting): draw with a mouse, a
 * finger or a pen (Pointer Events on a canvas; the box takes the touch instead of scrolling), clear
 * to start again; or, with the keyboard alone, type your full name and put it in the box. The
 * drawing is sent as a PNG (upload purpose `loan_signature`) and printed on the agreement.
 */
export function SignaturePad({
  handle,
  onChange,
  error,
}: {
  handle: RefObject<SignatureHandle | null>;
  onChange: (signed: boolean) => void;
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  const id = useId();
  const { ink, signed, keyboardWay, clear, sign } = useSignature(handle, onChange);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="loan-signature" data-testid="signature">
      <p id={`${id}-label`} className="loan-signature-label">
        {t('loan.sign.label')}
      </p>
      <p id={hintId} className="field-hint">
        {t('loan.sign.hint')}
      </p>
      <canvas
        ref={ink.canvas}
        className="loan-signature-box"
        data-testid="signature-pad"
        data-signed={signed}
        role="img"
        aria-labelledby={`${id}-label`}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        aria-invalid={error ? true : undefined}
        {...ink.handlers}
      >
        {t('loan.sign.canvasFallback')}
      </canvas>
      <div className="loan-signature-actions">
        <button type="button" className="button ghost small" onClick={clear} data-testid="signature-clear">
          {t('loan.sign.clear')}
        </button>
        <span className="small" role="status">
          {signed ? t('loan.sign.signed') : ''}
        </span>
      </div>
      <TypedName summary={keyboardWay} onUse={sign} />
      {error ? (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
