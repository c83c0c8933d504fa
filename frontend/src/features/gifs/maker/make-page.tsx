import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { FormMessage } from '@/components/form/form-message';
import { TextAreaField } from '@/components/form/text-area-field';
import { TextField } from '@/components/form/text-field';
import { useToast } from '@/components/toast/toast-provider';
import { toMB } from '@/lib/format';
import { usePublicConfig } from '@/lib/public-config';
import { useGif } from '../api/get-gif';
import { LeaveGuard } from '../components/leave-guard';
import { TagEditor } from '../components/tag-editor';
import { UploadProgress } from '../components/upload-progress';
import { DEFAULT_MAX_UPLOAD_BYTES, DESCRIPTION_MAX, TITLE_MAX } from '../upload-rules';
import { CaptionFields, CropFields, OutputFields } from './maker-fields';
import { MakerPlayer } from './maker-player';
import { ASPECTS } from './recipe';
import { DEFAULT_MAX_VIDEO_BYTES } from './source';
import { SourcePicker } from './source-picker';
import { MAKER_TEXTS } from './texts';
import { TrimBar } from './trim-bar';
import { useMakeGif } from './use-make-gif';
import { useMakerForm } from './use-maker-form';
import { useMakerSource } from './use-maker-source';
import { useRecorder } from './use-recorder';
import '../components/gifs.css';
import './maker.css';

/** `?gif={id}`: "Edit a copy" of that GIF. */
function useCopyOf() {
  const [params] = useSearchParams();
  const raw = params.get('gif');
  const id = raw && /^\d+$/.test(raw) ? Number(raw) : null;
  const gif = useGif(id ?? 0, id !== null);
  return id === null ? undefined : gif.data;
}

/**
 * /make — make a GIF from a video, a recording or a GIF of the library: trim on the filmstrip,
 * crop over the player, choose the output and a caption, then "Make GIF" (progress, then the new
 * GIF's page). Leaving while it works asks first.
 */
export function MakePage() {
  const toast = useToast();
  const config = usePublicConfig().data as ({ maxUploadBytes: number; maxVideoBytes?: number } | undefined);
  const maxUpload = config?.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const maxVideo = config?.maxVideoBytes ?? DEFAULT_MAX_VIDEO_BYTES;
  const sources = useMakerSource(maxVideo);
  const copyOf = useCopyOf();
  const recorder = useRecorder(sources.fromRecording, (message) =>
    toast.error(message, { title: MAKER_TEXTS.recordingFailedTitle }),
  );
  const form = useMakerForm(sources.source, copyOf);
  const job = useMakeGif();
  const busy = job.phase !== 'editing';

  const started = useRef<number | null>(null);
  const { fromGif } = sources;
  useEffect(() => {
    if (copyOf && started.current !== copyOf.id) {
      started.current = copyOf.id;
      fromGif(copyOf);
    }
  }, [copyOf, fromGif]);

  const source = sources.source;
  return (
    <section className="maker" aria-labelledby="maker-title">
      <LeaveGuard when={busy} message={MAKER_TEXTS.leave} />
      <h1 id="maker-title" className="page-title">
        {MAKER_TEXTS.title}
      </h1>
      {copyOf && <p className="maker__subtitle">{MAKER_TEXTS.editOf(copyOf.title)}</p>}
      {!source ? (
        <SourcePicker
          maxMb={Math.round(maxVideo / (1024 * 1024))}
          reading={sources.reading}
          recorder={recorder.state}
          onFile={sources.fromFile}
          onRecord={(kind) => void recorder.start(kind)}
          onStop={recorder.stop}
        />
      ) : (
        <form
          className="maker__layout"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (!form.missing) job.make(source.file, form.data(), form.recipe());
          }}
        >
          <div className="maker__main">
            <MakerPlayer
              source={source}
              start={form.settings.start}
              end={form.settings.end}
              crop={form.settings.crop}
              ratio={ASPECTS.find((a) => a.label === form.aspect)?.ratio ?? null}
              caption={form.settings.caption}
              onCrop={(crop) => form.update({ crop })}
            />
            <TrimBar
              source={source}
              start={form.settings.start}
              end={form.settings.end}
              fps={form.settings.fps}
              frames={form.frames}
              onTrim={(trim) => form.update(trim)}
            />
            {!copyOf && (
              <button type="button" className="btn btn--ghost maker__change" disabled={busy} onClick={sources.clear}>
                {MAKER_TEXTS.changeSource}
              </button>
            )}
          </div>
          <MakerSide form={form} source={source} busy={busy} job={job} maxUpload={maxUpload} />
        </form>
      )}
    </section>
  );
}

type MakerSideProps = {
  form: ReturnType<typeof useMakerForm>;
  source: NonNullable<ReturnType<typeof useMakerSource>['source']>;
  busy: boolean;
  job: ReturnType<typeof useMakeGif>;
  maxUpload: number;
};

/** The settings beside the player: crop, output, caption, title and tags, the estimate and "Make GIF". */
function MakerSide({ form, source, busy, job, maxUpload }: MakerSideProps) {
  const { settings, update } = form;
  return (
    <div className="panel form maker__side">
      <CropFields settings={settings} update={update} disabled={busy} source={source} aspect={form.aspect} onAspect={form.setAspect} />
      <OutputFields settings={settings} update={update} disabled={busy} />
      <CaptionFields settings={settings} update={update} disabled={busy} />
      <h2 className="detail-section__title">{MAKER_TEXTS.details}</h2>
      <TextField
        label="Title *"
        name="title"
        required
        maxLength={TITLE_MAX}
        value={form.title}
        onValueChange={form.setTitle}
        disabled={busy}
        help={`${form.title.length}/${TITLE_MAX}`}
      />
      <TextAreaField
        label="Description"
        name="description"
        rows={3}
        maxLength={DESCRIPTION_MAX}
        value={form.description}
        disabled={busy}
        onValueChange={form.setDescription}
        help={`${form.description.length}/${DESCRIPTION_MAX}`}
      />
      <TagEditor tags={form.tags} setTags={form.setTags} quickAddLabel="Suggested tags" disabled={busy} />
      <p className="maker__estimate" data-testid="estimate">
        {MAKER_TEXTS.estimate(toMB(form.estimate), form.size.width, form.size.height, form.frames)}
      </p>
      {form.estimate > maxUpload && <FormMessage kind="error">{MAKER_TEXTS.overLimit(toMB(maxUpload))}</FormMessage>}
      {busy && (
        <div className="maker__progress">
          <p className="field__help">{job.phase === 'sending' ? MAKER_TEXTS.sending : MAKER_TEXTS.working}</p>
          <UploadProgress fraction={job.progress} label={MAKER_TEXTS.progressLabel} />
        </div>
      )}
      <div className="form__actions">
        <button type="submit" className="btn btn--primary btn--large" disabled={busy || form.missing !== null}>
          {MAKER_TEXTS.make}
        </button>
      </div>
      {!busy && form.missing && <p className="field__help">{form.missing}</p>}
    </div>
  );
}
