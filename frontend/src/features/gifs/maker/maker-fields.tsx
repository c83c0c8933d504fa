import { useId } from 'react';
import {
  ASPECTS,
  CAPTION_MAX,
  CAPTION_POSITIONS,
  CAPTION_SIZES,
  DIRECTIONS,
  FPS_CHOICES,
  MAX_LOOPS,
  SPEEDS,
  WIDTHS,
  presetCrop,
  type AspectLabel,
  type MakerSettings,
} from './recipe';
import type { MakerSource } from './source';
import { MAKER_TEXTS } from './texts';

type FieldsProps = {
  settings: MakerSettings;
  update: (patch: Partial<MakerSettings>) => void;
  disabled: boolean;
};

/** The aspect presets (each sets the largest centred crop of its shape; Free keeps the crop) and the crop's value. */
export function CropFields({
  settings,
  update,
  disabled,
  source,
  aspect,
  onAspect,
}: FieldsProps & { source: MakerSource; aspect: AspectLabel; onAspect: (aspect: AspectLabel) => void }) {
  const crop = settings.crop;
  const choose = (label: AspectLabel, ratio: number | null) => {
    onAspect(label);
    if (ratio !== null) update({ crop: presetCrop(ratio, source.width, source.height) });
  };
  return (
    <fieldset className="maker-fieldset" disabled={disabled}>
      <legend className="field__label">{MAKER_TEXTS.crop}</legend>
      <div className="maker-choices" role="group" aria-label="Aspect">
        {ASPECTS.map(({ label, ratio }) => (
          <button
            key={label}
            type="button"
            className={`btn btn--small ${aspect === label ? 'btn--primary' : 'btn--secondary'}`}
            aria-pressed={aspect === label}
            onClick={() => choose(label, ratio)}
          >
            {label}
          </button>
        ))}
        <button type="button" className="btn btn--small btn--ghost" disabled={!crop} onClick={() => update({ crop: null })}>
          {MAKER_TEXTS.clearCrop}
        </button>
      </div>
      <p className="field__help" data-testid="crop-value">
        {crop ? MAKER_TEXTS.cropValue(crop.width, crop.height, crop.x, crop.y) : MAKER_TEXTS.noCrop}
      </p>
      <p className="field__help">{MAKER_TEXTS.cropHint}</p>
    </fieldset>
  );
}

function Select<T extends string | number>({
  label,
  value,
  options,
  onChange,
  show = String,
}: {
  label: string;
  value: T;
  options: readonly T[];
  onChange: (value: T) => void;
  show?: (value: T) => string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="field__input"
        value={String(value)}
        onChange={(event) => {
          const picked = options.find((option) => String(option) === event.target.value);
          if (picked !== undefined) onChange(picked);
        }}
      >
        {options.map((option) => (
          <option key={String(option)} value={String(option)}>
            {show(option)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Width, frames per second, speed, direction and loop count. */
export function OutputFields({ settings, update, disabled }: FieldsProps) {
  const loopsId = useId();
  return (
    <fieldset className="maker-fieldset maker-grid" disabled={disabled}>
      <legend className="field__label">{MAKER_TEXTS.output}</legend>
      <Select label={MAKER_TEXTS.width} value={settings.width} options={WIDTHS} show={(w) => `${w} px`} onChange={(width) => update({ width })} />
      <Select label={MAKER_TEXTS.fps} value={settings.fps} options={FPS_CHOICES} onChange={(fps) => update({ fps })} />
      <Select label={MAKER_TEXTS.speed} value={settings.speed} options={SPEEDS} show={(s) => `${s}×`} onChange={(speed) => update({ speed })} />
      <Select
        label={MAKER_TEXTS.direction}
        value={settings.direction}
        options={DIRECTIONS}
        show={(d) => MAKER_TEXTS.directions[d]}
        onChange={(direction) => update({ direction })}
      />
      <div className="field">
        <label className="field__label" htmlFor={loopsId}>
          {MAKER_TEXTS.loops}
        </label>
        <input
          id={loopsId}
          className="field__input"
          type="number"
          min={0}
          max={MAX_LOOPS}
          step={1}
          value={Number.isNaN(settings.loop) ? '' : settings.loop}
          onChange={(event) => update({ loop: event.target.value === '' ? Number.NaN : Number(event.target.value) })}
          aria-describedby={`${loopsId}-help`}
        />
        <p id={`${loopsId}-help`} className="field__help">
          {MAKER_TEXTS.loopsHelp}
        </p>
      </div>
    </fieldset>
  );
}

/** The caption's text (with its counter), position and size. */
export function CaptionFields({ settings, update, disabled }: FieldsProps) {
  const id = useId();
  const { caption } = settings;
  const set = (patch: Partial<MakerSettings['caption']>) => update({ caption: { ...caption, ...patch } });
  return (
    <fieldset className="maker-fieldset" disabled={disabled}>
      <legend className="visually-hidden">{MAKER_TEXTS.caption}</legend>
      <div className="field">
        <label className="field__label" htmlFor={id}>
          {MAKER_TEXTS.caption}
        </label>
        <input
          id={id}
          className="field__input"
          type="text"
          maxLength={CAPTION_MAX}
          value={caption.text}
          onChange={(event) => set({ text: event.target.value })}
          aria-describedby={`${id}-count`}
        />
        <p id={`${id}-count`} className="field__help">{`${[...caption.text].length}/${CAPTION_MAX}`}</p>
      </div>
      <div className="maker-grid">
        <Select
          label={MAKER_TEXTS.captionPosition}
          value={caption.position}
          options={CAPTION_POSITIONS}
          show={(p) => MAKER_TEXTS.positions[p]}
          onChange={(position) => set({ position })}
        />
        <Select
          label={MAKER_TEXTS.captionSize}
          value={caption.size}
          options={CAPTION_SIZES}
          show={(s) => MAKER_TEXTS.sizes[s]}
          onChange={(size) => set({ size })}
        />
      </div>
    </fieldset>
  );
}
