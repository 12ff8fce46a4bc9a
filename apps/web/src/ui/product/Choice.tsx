import type { ReactNode } from 'react';
import './product.css';

/** One option of a choice: what is sent and what the customer reads. */
export type ChoiceOption<V extends string | number> = { value: V; label: ReactNode };

/**
 * A choice of a few (how to pay, how much, a term) as radio buttons in a fieldset named by its
 * legend: one under the other, or side by side as pills. `className` is the product's own name of
 * the fieldset, `optionClassName` of each option; `children` follow the options (what is not
 * offered, and why).
 */
export function Choice<V extends string | number>({
  legend,
  name,
  value,
  options,
  onChange,
  pills = false,
  className,
  optionClassName,
  children,
}: {
  legend: ReactNode;
  name: string;
  value: V;
  options: readonly ChoiceOption<V>[];
  onChange: (value: V) => void;
  pills?: boolean;
  className?: string;
  optionClassName?: string;
  children?: ReactNode;
}) {
  const optionClass = pills ? 'product-pill' : 'product-option';
  const items = options.map((option) => (
    <label key={option.value} className={optionClassName ? `${optionClassName} ${optionClass}` : optionClass}>
      <input
        type="radio"
        name={name}
        value={option.value}
        checked={option.value === value}
        onChange={() => onChange(option.value)}
      />
      <span>{option.label}</span>
    </label>
  ));
  return (
    <fieldset className={className ? `${className} product-choice` : 'product-choice'}>
      <legend>{legend}</legend>
      {pills ? <div className="product-pills">{items}</div> : items}
      {children}
    </fieldset>
  );
}
