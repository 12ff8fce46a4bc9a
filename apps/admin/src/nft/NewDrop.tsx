import { NFT_ASSETS, NFT_CHARITY_SHARE_BPS, NFT_MIN_INCREMENT_BPS, UPLOAD_ACCEPT } from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { callAdmin, failureMessage, fetchUpload, StaffApiError, uploadNftArtwork } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { Field, SelectField, SubmitRow } from '../Field.tsx';
import { issuesOf } from '../useDraftForm.ts';
import { nftKeys } from './keys.ts';
import { NftScreen } from './NftScreen.tsx';
import { type NftText, useNftText } from './nft.text.ts';

type Draft = {
  book: 'demo' | 'live';
  name: string;
  description: string;
  creator: string;
  charityId: string;
  sharePercent: string;
  asset: (typeof NFT_ASSETS)[number];
  saleType: 'fixed' | 'auction';
  startPrice: string;
  reserve: string;
  incrementPercent: string;
  buyNow: string;
  durationMinutes: string;
};

const EMPTY: Draft = {
  book: 'live',
  name: '',
  description: '',
  creator: '',
  charityId: '',
  sharePercent: String(NFT_CHARITY_SHARE_BPS / 100),
  asset: 'USDT',
  saleType: 'auction',
  startPrice: '',
  reserve: '',
  incrementPercent: String(NFT_MIN_INCREMENT_BPS / 100),
  buyNow: '',
  durationMinutes: '1440',
};

/** A text field's value and change, bound to one field of the draft. */
function bind(d: Draft, set: (patch: Partial<Draft>) => void, key: keyof Draft) {
  return {
    value: d[key],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      set({ [key]: e.target.value }),
  };
}

/** The server's refusal in words, with the fields it names (`name: issue`), for staff to fix. */
function refusalWithFields(error: unknown, fallback: string): string {
  const fields = error instanceof StaffApiError ? issuesOf(error.data) : [];
  const message = failureMessage(error, fallback);
  return fields.length === 0
    ? message
    : `${message} (${fields.map((f) => `${f.name}: ${f.issue}`).join(', ')})`;
}

/** A percentage typed by staff ("5", "2.5") in basis points; NaN when it is not one. */
export function bpsOf(percent: string): number {
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(percent.trim());
  if (!match) return Number.NaN;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** The create call's body from the form: empty optional fields left out, percentages in basis points. */
export function dropBody(d: Draft, artworkUploadId: string) {
  const auction = d.saleType === 'auction';
  return {
    book: d.book,
    name: d.name.trim(),
    description: d.description.trim(),
    creator: d.creator.trim(),
    artworkUploadId,
    charityId: d.charityId,
    charityShareBps: bpsOf(d.sharePercent),
    // The platform's fee is the rest of the sale (the server bounds it: at most 20 %).
    platformFeeBps: 10_000 - bpsOf(d.sharePercent),
    asset: d.asset,
    saleType: d.saleType,
    startPrice: d.startPrice.trim(),
    ...(auction && d.reserve.trim() ? { reserve: d.reserve.trim() } : {}),
    ...(auction
      ? { minIncrementBps: bpsOf(d.incrementPercent), durationMinutes: Number(d.durationMinutes) }
      : {}),
    ...(auction && d.buyNow.trim() ? { buyNow: d.buyNow.trim() } : {}),
  };
}

/**
 * The artwork: a picture sent to the upload service (purpose `nft_artwork`: checked by its bytes,
 * re-encoded without its metadata), previewed from the stored file.
 */
function ArtworkInput({ onChange, t }: { onChange: (id: string | null) => void; t: NftText }) {
  const { text } = useBackOffice();
  const id = useId();
  const [preview, setPreview] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const stored = await uploadNftArtwork(file);
      return { id: stored.id, url: await fetchUpload(stored.id).catch(() => null) };
    },
    onMutate: () => onChange(null),
    onSuccess: (stored) => {
      setPreview(stored.url);
      onChange(stored.id);
    },
  });
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);
  return (
    <div className="field">
      <label htmlFor={id}>{t.create.artwork}</label>
      <input
        id={id}
        type="file"
        accept={UPLOAD_ACCEPT}
        aria-describedby={`${id}-state`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) upload.mutate(file);
        }}
        data-testid="nft-artwork"
      />
      <p id={`${id}-state`} className="hint" role="status">
        {upload.isPending
          ? text.loading
          : upload.isError
            ? failureMessage(upload.error, t.create.artworkFailed)
            : upload.isSuccess
              ? t.create.artworkStored
              : t.create.artworkHint}
      </p>
      {preview ? <img className="nft-artwork-preview" src={preview} alt={t.create.artworkPreview} /> : null}
    </div>
  );
}

function SaleFields({ d, set, t }: { d: Draft; set: (patch: Partial<Draft>) => void; t: NftText }) {
  const auction = d.saleType === 'auction';
  return (
    <fieldset>
      <legend>{t.create.sale}</legend>
      <SelectField
        label={t.create.saleType}
        value={d.saleType}
        onChange={(e) => set({ saleType: e.target.value as Draft['saleType'] })}
        options={[
          { value: 'auction', label: t.saleType.auction },
          { value: 'fixed', label: t.saleType.fixed },
        ]}
      />
      <SelectField
        label={t.create.asset}
        value={d.asset}
        onChange={(e) => set({ asset: e.target.value as Draft['asset'] })}
        options={NFT_ASSETS.map((a) => ({ value: a, label: a }))}
      />
      <Field
        label={auction ? t.create.startPrice : t.create.price}
        inputMode="decimal"
        required
        {...bind(d, set, 'startPrice')}
      />
      {auction ? (
        <>
          <Field
            label={t.create.reserve}
            hint={t.create.optional}
            inputMode="decimal"
            {...bind(d, set, 'reserve')}
          />
          <Field label={t.create.increment} inputMode="decimal" {...bind(d, set, 'incrementPercent')} />
          <Field
            label={t.create.buyNow}
            hint={t.create.optional}
            inputMode="decimal"
            {...bind(d, set, 'buyNow')}
          />
          <Field
            label={t.create.duration}
            hint={t.create.durationHint}
            inputMode="numeric"
            {...bind(d, set, 'durationMinutes')}
          />
        </>
      ) : null}
    </fieldset>
  );
}

/** The charity the sale gives to, and its share. */
function CharityFields({
  d,
  set,
  t,
  charities,
}: {
  d: Draft;
  set: (patch: Partial<Draft>) => void;
  t: NftText;
  charities: { id: string; name: string }[] | undefined;
}) {
  return (
    <fieldset>
      <legend>{t.create.charity}</legend>
      <SelectField
        label={t.create.charityName}
        {...bind(d, set, 'charityId')}
        hint={charities?.length === 0 ? t.create.noCharity : undefined}
        options={[
          { value: '', label: t.create.choose },
          ...(charities ?? []).map((c) => ({ value: String(c.id), label: c.name })),
        ]}
      />
      <Field
        label={t.create.share}
        hint={t.create.shareHint}
        inputMode="decimal"
        {...bind(d, set, 'sharePercent')}
      />
    </fieldset>
  );
}

/** What the drop is: its book, name, creator, description, artwork, and the charity with its share. */
function DropFields({
  d,
  set,
  t,
  charities,
  onArtwork,
}: {
  d: Draft;
  set: (patch: Partial<Draft>) => void;
  t: NftText;
  charities: { id: string; name: string }[] | undefined;
  onArtwork: (id: string | null) => void;
}) {
  const description = useId();
  return (
    <>
      <SelectField
        label={t.create.book}
        value={d.book}
        onChange={(e) => set({ book: e.target.value as Draft['book'] })}
        options={[
          { value: 'live', label: t.book.live },
          { value: 'demo', label: t.book.demo },
        ]}
      />
      <Field label={t.create.name} required maxLength={80} {...bind(d, set, 'name')} />
      <Field label={t.create.creator} required maxLength={80} {...bind(d, set, 'creator')} />
      <div className="field">
        <label htmlFor={description}>{t.create.description}</label>
        <textarea id={description} maxLength={2000} {...bind(d, set, 'description')} />
      </div>
      <ArtworkInput onChange={onArtwork} t={t} />
      <CharityFields d={d} set={set} t={t} charities={charities} />
    </>
  );
}

/** /admin/nft/new: a drop made as a draft (creator, artwork, charity and share, sale), then minted from the list. */
export function NewDrop() {
  const t = useNftText();
  const { language, text } = useBackOffice();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [d, setDraft] = useState<Draft>(EMPTY);
  const [artwork, setArtwork] = useState<string | null>(null);
  const set = (patch: Partial<Draft>) => setDraft((was) => ({ ...was, ...patch }));
  const charities = useQuery({
    queryKey: nftKeys.charity(language),
    queryFn: () => callAdmin('listNftCharities'),
  });
  const create = useMutation({
    mutationFn: () => callAdmin('createNftDrop', { body: dropBody(d, artwork ?? '') }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: nftKeys.all });
      navigate('/nft');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (artwork) create.mutate();
  };
  const failure = create.isError ? refusalWithFields(create.error, text.error.generic) : '';
  return (
    <NftScreen heading={t.create.heading}>
      <p className="muted">{t.create.intro}</p>
      <form className="nft-form" onSubmit={submit} noValidate data-testid="nft-create">
        <DropFields d={d} set={set} t={t} charities={charities.data?.charities} onArtwork={setArtwork} />
        <SaleFields d={d} set={set} t={t} />
        <SubmitRow failure={failure} busy={create.isPending || !artwork} label={t.create.submit} />
      </form>
    </NftScreen>
  );
}
