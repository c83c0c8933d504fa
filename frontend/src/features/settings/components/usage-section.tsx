import { errorMessage } from '@/lib/api-client';
import { toMB } from '@/lib/format';
import { MSG_LOAD_USAGE_FAILED, useUsage } from '../api/usage';

/** One figure with its limit, and a bar when there is one. */
function Meter({ label, used, limit, unit }: { label: string; used: number; limit: number | null; unit: (n: number) => string }) {
  const share = limit === null ? null : limit === 0 ? 1 : Math.min(1, used / limit);
  return (
    <div className="usage-meter">
      <div className="usage-meter__line">
        <span>{label}</span>
        <span>
          {unit(used)} {limit === null ? 'of unlimited' : `of ${unit(limit)}`}
        </span>
      </div>
      {share === null ? null : (
        <div
          className={`usage-meter__bar${share >= 1 ? ' usage-meter__bar--full' : ''}`}
          role="meter"
          aria-label={label}
          aria-valuemin={0}
          aria-valuemax={limit ?? 0}
          aria-valuenow={Math.min(used, limit ?? used)}
        >
          <span style={{ width: `${Math.round(share * 100)}%` }} />
        </div>
      )}
    </div>
  );
}

/** "Usage": the member's stored MB and uploads today against their quotas. */
export function UsageSection() {
  const usage = useUsage();
  return (
    <section className="settings-card" aria-labelledby="usage-heading">
      <h2 id="usage-heading" className="settings-card__title">
        Usage
      </h2>
      {usage.isPending ? (
        <p className="state-line" role="status">
          Loading usage...
        </p>
      ) : usage.isError ? (
        <p className="form-message form-message--error" role="alert">
          {errorMessage(usage.error, MSG_LOAD_USAGE_FAILED)}
        </p>
      ) : (
        <div className="usage">
          <Meter label="Storage" used={usage.data.storageBytes} limit={usage.data.storageLimit} unit={(n) => `${toMB(n)} MB`} />
          <Meter label="Uploads today" used={usage.data.uploadsToday} limit={usage.data.uploadsPerDay} unit={String} />
        </div>
      )}
    </section>
  );
}
