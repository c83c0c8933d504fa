import { useEffect, useId, useRef } from 'react';
import { useFileDrop } from '../use-file-drop';
import { SOURCE_ACCEPT } from './source';
import { MAKER_TEXTS } from './texts';
import { RECORD_LIMIT_SECS, type RecordKind, type RecorderState } from './use-recorder';

type SourcePickerProps = {
  maxMb: number;
  reading: boolean;
  recorder: RecorderState;
  onFile: (file: File) => void;
  onRecord: (kind: RecordKind) => void;
  onStop: () => void;
};

/** The camera or screen being recorded, shown live. */
function LivePreview({ stream }: { stream: MediaStream }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (video.current) video.current.srcObject = stream;
  }, [stream]);
  return <video ref={video} className="maker-live__video" muted autoPlay playsInline aria-hidden="true" />;
}

/** While recording: the countdown or the time so far, the live picture, and Stop (Cancel in the countdown). */
function RecordingPanel({ recorder, onStop }: { recorder: Exclude<RecorderState, { phase: 'idle' }>; onStop: () => void }) {
  const counting = recorder.phase === 'countdown';
  return (
    <div className="panel maker-live">
      <LivePreview stream={recorder.stream} />
      <p className={counting ? 'maker-live__countdown' : 'maker-live__time'} role="status" aria-live="polite">
        {counting ? MAKER_TEXTS.countdown(recorder.left) : MAKER_TEXTS.recording(recorder.elapsed, RECORD_LIMIT_SECS)}
      </p>
      {!counting && (
        <div
          className="upload-progress__track"
          role="progressbar"
          aria-label={MAKER_TEXTS.recording(recorder.elapsed, RECORD_LIMIT_SECS)}
          aria-valuemin={0}
          aria-valuemax={RECORD_LIMIT_SECS}
          aria-valuenow={Math.floor(recorder.elapsed)}
        >
          <div className="upload-progress__bar" style={{ width: `${(100 * recorder.elapsed) / RECORD_LIMIT_SECS}%` }} />
        </div>
      )}
      <button type="button" className="btn btn--danger" onClick={onStop}>
        {counting ? MAKER_TEXTS.cancel : MAKER_TEXTS.stopRecording}
      </button>
    </div>
  );
}

/** A file (picked or dropped), a screen recording or a camera recording. */
export function SourcePicker({ maxMb, reading, recorder, onFile, onRecord, onStop }: SourcePickerProps) {
  const inputId = useId();
  const drop = useFileDrop((files) => {
    const file = files?.[0];
    if (file && !reading) onFile(file);
  });
  if (recorder.phase !== 'idle') return <RecordingPanel recorder={recorder} onStop={onStop} />;

  return (
    <div
      className={['panel', 'dropzone', 'maker-source', drop.dragging ? 'dropzone--active' : ''].filter(Boolean).join(' ')}
      {...drop.zone}
      data-testid="maker-source"
    >
      <h2 className="detail-section__title">{MAKER_TEXTS.sourceHeading}</h2>
      <div className="dropzone__empty" aria-hidden="true">
        <span className="dropzone__icon">▶</span>
      </div>
      {reading ? (
        <p className="state-line" role="status">
          {MAKER_TEXTS.readingSource}
        </p>
      ) : (
        <div className="maker-source__actions">
          <input
            id={inputId}
            type="file"
            accept={SOURCE_ACCEPT}
            className="visually-hidden dropzone__input"
            {...drop.input}
          />
          <label htmlFor={inputId} className="btn btn--primary dropzone__button">
            {MAKER_TEXTS.chooseFile}
          </label>
          <button type="button" className="btn btn--secondary" onClick={() => onRecord('screen')}>
            {MAKER_TEXTS.recordScreen}
          </button>
          <button type="button" className="btn btn--secondary" onClick={() => onRecord('camera')}>
            {MAKER_TEXTS.recordCamera}
          </button>
        </div>
      )}
      <p className="dropzone__hint">{MAKER_TEXTS.sourceHint(maxMb)}</p>
    </div>
  );
}
