import { useId, type TextareaHTMLAttributes } from 'react';

type TextAreaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'onChange' | 'value'> & {
  label: string;
  value: string;
  onValueChange?: (value: string) => void;
  help?: string;
};

/** A labelled multi-line input with optional help text (a character count), like `TextField`. */
export function TextAreaField({ label, value, onValueChange, help, ...textarea }: TextAreaFieldProps) {
  const id = useId();
  const helpId = help ? `${id}-help` : undefined;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <textarea
        {...textarea}
        id={id}
        className="field__input field__textarea"
        value={value}
        onChange={(event) => onValueChange?.(event.target.value)}
        aria-describedby={helpId}
      />
      {help && (
        <p id={helpId} className="field__help">
          {help}
        </p>
      )}
    </div>
  );
}
