import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { RatingField, ratingLabel } from './rating-field';

describe('RatingField', () => {
  it('offers the four ratings mildest first and reports the choice', () => {
    const onChange = vi.fn();
    render(<RatingField value="g" onChange={onChange} />);
    const select = screen.getByLabelText('Rating');
    expect(Array.from((select as HTMLSelectElement).options).map((o) => o.value)).toEqual(['g', 'pg', 'pg-13', 'r']);
    fireEvent.change(select, { target: { value: 'r' } });
    expect(onChange).toHaveBeenCalledWith('r');
  });

  it('can leave the rating to the library default', () => {
    const onChange = vi.fn();
    render(<RatingField value="" onChange={onChange} allowDefault />);
    const select = screen.getByLabelText<HTMLSelectElement>('Rating');
    expect(select.value).toBe('');
    expect(select.options[0]).toHaveTextContent('Library default');
    fireEvent.change(select, { target: { value: 'pg' } });
    expect(onChange).toHaveBeenCalledWith('pg');
    expect(ratingLabel('pg-13')).toBe('PG-13');
  });
});
