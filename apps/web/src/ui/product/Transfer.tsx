import type { ReactNode } from 'react';
import { Field } from '../Field.tsx';
import './product.css';

/**
 * Where a transfer is paid to: the address in its own block, left to right and every character
 * kept, then its copy button. `className` and `codeClassName` are the product's own.
 */
export function PayAddress({
  address,
  testId,
  className,
  codeClassName,
  copy,
}: {
  address: string;
  testId: string;
  className: string;
  codeClassName: string;
  copy: ReactNode;
}) {
  return (
    <p className={`${className} product-address-row`}>
      <code dir="ltr" className={`${codeClassName} product-address`} data-testid={testId}>
        {address}
      </code>{' '}
      {copy}
    </p>
  );
}

/** The hash of the transfer a proof is of: as typed, without spaces around it, read left to right. */
export function TxHashField({
  label,
  value,
  error,
  onChange,
}: {
  label: string;
  value: string;
  error: string | undefined;
  onChange: (hash: string) => void;
}) {
  return (
    <Field
      label={label}
      name="txHash"
      dir="ltr"
      autoComplete="off"
      spellCheck={false}
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value.trim())}
    />
  );
}
