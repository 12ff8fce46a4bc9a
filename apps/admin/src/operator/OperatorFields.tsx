import { COUNTRIES, LANGUAGE_NAMES, LANGUAGE_TAGS, LANGUAGES, type Language } from '@swx/contract';
import { type ReactNode, useId, useMemo } from 'react';
import { useBackOffice } from '../context.ts';
import { Field, FieldError } from '../Field.tsx';
import { OPERATOR_TEXT } from './operator.text.ts';
import type { Errors, Localized } from './operatorForm.ts';

/** A country of the contract's list, by its name in the staff member's language (sorted so), or none. */
export function CountrySelect({
  label,
  value,
  error,
  onChange,
}: {
  label: string;
  value: string;
  error?: string | undefined;
  onChange: (value: string) => void;
}) {
  const { language } = useBackOffice();
  const text = OPERATOR_TEXT[language];
  const id = useId();
  const options = useMemo(() => {
    const names = new Intl.DisplayNames([LANGUAGE_TAGS[language]], { type: 'region', fallback: 'code' });
    const collator = new Intl.Collator(LANGUAGE_TAGS[language]);
    return COUNTRIES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
      collator.compare(a.name, b.name),
    );
  }, [language]);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">{text.notSet}</option>
        {options.map((option) => (
          <option key={option.code} value={option.code}>
            {option.name}
          </option>
        ))}
      </select>
      <FieldError id={id} error={error} />
    </div>
  );
}

/** Rows the staff member adds and removes (leaders, partners), each in a numbered group of its own. */
export function RowGroups<Row extends { key: number }>({
  legend,
  rows,
  onChange,
  numbered,
  add,
  remove,
  newRow,
  renderRow,
}: {
  legend: string;
  rows: Row[];
  onChange: (rows: Row[]) => void;
  numbered: (n: number) => string;
  add: string;
  remove: string;
  newRow: () => Row;
  renderRow: (row: Row, index: number, update: (next: Partial<Row>) => void) => ReactNode;
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {rows.map((row, index) => (
        <fieldset key={row.key} className="row-group">
          <legend>{numbered(index + 1)}</legend>
          {renderRow(row, index, (next) =>
            onChange(rows.map((other) => (other.key === row.key ? { ...other, ...next } : other))),
          )}
          <div className="actions">
            <button type="button" onClick={() => onChange(rows.filter((other) => other.key !== row.key))}>
              {remove}
            </button>
          </div>
        </fieldset>
      ))}
      <div className="actions">
        <button type="button" onClick={() => onChange([...rows, newRow()])}>
          {add}
        </button>
      </div>
    </fieldset>
  );
}

/** A text in the staff member's language first, the other nine behind "Other languages". */
export function LocalizedField({
  label,
  value,
  errors,
  path,
  onChange,
}: {
  label: string;
  value: Localized;
  errors: Errors;
  path: string;
  onChange: (value: Localized) => void;
}) {
  const { language } = useBackOffice();
  const text = OPERATOR_TEXT[language];
  const others = LANGUAGES.filter((l) => l !== language);
  const input = (l: Language, fieldLabel: string) => (
    <Field
      key={l}
      label={fieldLabel}
      lang={LANGUAGE_TAGS[l]}
      dir={l === 'ar' ? 'rtl' : 'ltr'}
      value={value[l]}
      maxLength={200}
      error={errors[`${path}.${l}`]}
      onChange={(event) => onChange({ ...value, [l]: event.target.value })}
    />
  );
  return (
    <fieldset className="localized">
      <legend>{label}</legend>
      <p className="hint">{text.hints.localized}</p>
      {errors[path] ? <p className="error-text">{errors[path]}</p> : null}
      {input(language, LANGUAGE_NAMES[language])}
      <details open={others.some((l) => value[l] !== '')}>
        <summary>{text.otherLanguages}</summary>
        {others.map((l) => input(l, LANGUAGE_NAMES[l]))}
      </details>
    </fieldset>
  );
}
