type StatCardProps = {
  label: string;
  value: string;
  subtitle?: string | undefined;
};

/** One figure of the overview (a labelled group, so that it can be found by its label). */
export function StatCard({ label, value, subtitle }: StatCardProps) {
  return (
    <div className="stat-card" role="group" aria-label={label}>
      <p className="stat-card__label">{label}</p>
      <p className="stat-card__value">{value}</p>
      {subtitle ? <p className="stat-card__subtitle">{subtitle}</p> : null}
    </div>
  );
}
