/** One option of a {@link Choice}: the value chosen and the words shown. */
export interface ChoiceOption<T extends string> {
  value: T;
  label: string;
}

interface ChoiceProps<T extends string> {
  legend: string;
  /** The radio buttons' `name`, one per choice on the page. */
  name: string;
  options: ChoiceOption<T>[];
  value: T;
  onChange: (value: T) => void;
}

/** A set of radio buttons under a legend, choosing one value: the page's strategy and route selectors. */
export function Choice<T extends string>({ legend, name, options, value, onChange }: ChoiceProps<T>) {
  return (
    <fieldset className="strategy">
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option.value}>
          <input type="radio" name={name} value={option.value} checked={value === option.value} onChange={() => onChange(option.value)} />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}
