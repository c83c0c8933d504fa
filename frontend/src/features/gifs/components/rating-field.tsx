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

/** "Rating": a select of the four ratings, styled as the other form fields. */
export function RatingField({
  value,
  onChange,
  disabled,
}: {
  value: Rating;
  onChange: (rating: Rating) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        Rating
      </label>
      <select
        id={id}
        className="field__input"
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value as Rating)}
      >
        {RATINGS.map((r) => (
          <option key={r.value} value={r.value}>
            {r.label}
          </option>
        ))}
      </select>
    </div>
  );
}
