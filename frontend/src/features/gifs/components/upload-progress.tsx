/** An upload's progress bar (`fraction` 0 to 1) and its percentage. */
export function UploadProgress({ fraction, label }: { fraction: number; label: string }) {
  const percent = Math.round(fraction * 100);
  return (
    <div className="upload-progress">
      <div
        className="upload-progress__track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className="upload-progress__bar" style={{ width: `${percent}%` }} />
      </div>
      <span className="upload-progress__value">{percent}%</span>
    </div>
  );
}
