import { useId } from 'react';
import type { BucketRow } from '../chart-data';

type BucketTableProps = {
  title: string;
  /** "Size Range" or "Type". */
  firstColumn: string;
  rows: readonly BucketRow[];
  onSelect: (label: string) => void;
};

/**
 * "Size Distribution Details" and "Content Type Details": a click on a row opens its detail
 * modal; the label is a button, so the keyboard reaches every row too.
 */
export function BucketTable({ title, firstColumn, rows, onSelect }: BucketTableProps) {
  const titleId = useId();
  return (
    <section className="stats-panel" aria-labelledby={titleId}>
      <h2 id={titleId} className="stats-panel__title">
        {title}
      </h2>
      {rows.length === 0 ? (
        <p className="state-line">No data available</p>
      ) : (
        <div className="stats-table-wrap">
          <table className="stats-table">
            <thead>
              <tr>
                <th scope="col">{firstColumn}</th>
                <th scope="col" className="stats-table__number">
                  Count
                </th>
                <th scope="col" className="stats-table__number">
                  Avg Size (MB)
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                // The button's click bubbles here: one handler for the mouse anywhere on the row and the keyboard.
                <tr key={row.label} className="stats-table__row" onClick={() => onSelect(row.label)}>
                  <th scope="row">
                    <button type="button" className="stats-table__open">
                      {row.label}
                    </button>
                  </th>
                  <td className="stats-table__number">{row.count}</td>
                  <td className="stats-table__number">{row.averageMB}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
