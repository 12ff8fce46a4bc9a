import { announce } from './announce.ts';
import { Isolated, withoutIsolates } from './bidi.tsx';
import { copyText } from './copy.ts';

/**
 * A copy button: the text on the clipboard, and the outcome said by the shell's live region in the
 * caller's words (`said`, already translated).
 */
export function CopyButton({
  text,
  label,
  name,
  said,
}: {
  text: string;
  label: string;
  name?: string;
  said: { copied: string; failed: string };
}) {
  return (
    <button
      type="button"
      className="button ghost small"
      aria-label={name === undefined ? undefined : withoutIsolates(name)}
      onClick={async () => announce((await copyText(text)) ? said.copied : said.failed)}
    >
      <Isolated text={label} />
    </button>
  );
}
