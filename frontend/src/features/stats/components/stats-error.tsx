type StatsErrorProps = {
  message: string;
  onRetry: () => void;
};

/** The error view of the statistics screen (spec §2, §8), with a Retry action. */
export function StatsError({ message, onRetry }: StatsErrorProps) {
  return (
    <div className="stats-error" role="alert">
      <h2 className="stats-error__title">Error Loading Statistics</h2>
      <p className="stats-error__message">{message}</p>
      <button type="button" className="btn btn--primary" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
