import { Link } from 'react-router-dom';
import { paths } from '@/app/paths';
import { Modal } from '@/components/modal/modal';
import type { DetailTarget } from '../api/query-keys';
import { DETAIL_COLUMNS, detailTableRows, detailTitle } from '../detail-columns';
import { useDetailRows } from '../hooks/use-detail-rows';

type DetailModalProps = {
  target: DetailTarget;
  onClose: () => void;
};

/**
 * "Detailed Data: {range, name or type}" (spec §2, §4): loading, then the rows or "No data
 * available" (a failed fetch is logged and shows as empty). Closes by ×, Close and Escape.
 */
export function DetailModal({ target, onClose }: DetailModalProps) {
  const query = useDetailRows(target);
  const rows = query.data ? detailTableRows(query.data) : [];
  const columns = DETAIL_COLUMNS[target.kind];

  return (
    <Modal title={detailTitle(target)} onClose={onClose} className="stats-modal">
      {query.isPending ? (
        <p className="state-line" role="status">
          Loading detailed data...
        </p>
      ) : rows.length === 0 ? (
        <p className="state-line">No data available</p>
      ) : (
        <div className="stats-table-wrap">
          <table className="stats-table">
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key}>
                  {row.cells.map((cell, index) => (
                    <td key={columns[index] ?? index}>
                      {cell.gifId === undefined ? cell.text : <Link to={paths.gif(cell.gifId)}>{cell.text}</Link>}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="stats-modal__footer">
        <button type="button" className="btn btn--secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
