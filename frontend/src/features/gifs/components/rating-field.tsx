import { useId } from 'react';
import type { Rating } from '@/api/generated/Rating';

/** The ratings, mildest first, with what each lets through (GIPHY's and Tenor's scale). */
export const RATINGS: readonly { value: Rating; label: string }[] = [
  { value: 'g', label: 'G – for everyone' },
  { value: 'pg', label: 'PG' },
  { value: 'pg-13', label: 'PG-13' },
  { value: 'r', label: 'R – adults only' },
];

export function ratingLabel(rating: Rating): string {
  return RATINGS.find((r) => r.value === rating)?.label ?? rating;
}

/** "Rating" (or `label`): a select of the four ratings, styled as the other form fields. With
 * `allowDefault`, a first choice '' leaves the rating to the server (GIFSHELF_DEFAULT_RATING). */
export function RatingField<V extends Rating | ''>({
  value,
  onChange,
  disabled,
  allowDefault = false,
  label = 'Rating',
  name,
}: {
  value: V;
  onChange: (rating: V) => void;
  disabled?: boolean;
  allowDefault?: boolean;
  label?: string;
  name?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        name={name}
        className="field__input"
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value as V)}
      >
        {allowDefault && <option value="">Library default</option>}
        {RATINGS.map((r) => (
          <option key={r.value} value={r.value}>
            {r.label}
          </option>
        ))}
      </select>
    </div>
  );
}
