import { useState } from 'react';
import type { GifDto } from '@/api/generated/GifDto';
import { MSG_NO_TITLE } from '../upload-rules';
import {
  buildRecipe,
  estimateBytes,
  frameCount,
  initialSettings,
  outputSize,
  resnap,
  settingsProblem,
  type AspectLabel,
  type MakerSettings,
} from './recipe';
import type { MakerSource } from './source';
import { MAKER_TEXTS } from './texts';

/**
 * The maker form's state for one source: the settings (a new source starts them again, with its
 * title), the aspect preset, title, description and tags, the estimate and what is missing.
 */
export function useMakerForm(source: MakerSource | null, copyOf: GifDto | undefined) {
  const [settings, setSettings] = useState<MakerSettings>(() => initialSettings(source?.duration ?? 1));
  const [aspect, setAspect] = useState<AspectLabel>('Free');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [forSource, setForSource] = useState<MakerSource | null>(null);

  // A new source: its first seconds, no crop, and its name (or its GIF's title and tags) offered.
  if (source !== forSource) {
    setForSource(source);
    if (source) {
      setSettings(initialSettings(source.duration));
      setAspect('Free');
      setTitle(source.title);
      if (copyOf && source.gifId === copyOf.id) setTags(copyOf.tags.map((tag) => tag.name));
    }
  }

  const update = (patch: Partial<MakerSettings>) =>
    setSettings((current) => {
      const next = { ...current, ...patch };
      if (patch.fps !== undefined && source) return { ...next, ...resnap(next.start, next.end, next.fps, source.duration) };
      return next;
    });

  const missing = !source ? MAKER_TEXTS.noSource : !title.trim() ? MSG_NO_TITLE : settingsProblem(settings);
  const size = source ? outputSize(settings, source) : { width: 0, height: 0 };

  return {
    settings,
    update,
    aspect,
    setAspect,
    title,
    setTitle,
    description,
    setDescription,
    tags,
    setTags,
    missing,
    size,
    frames: frameCount(settings),
    estimate: source ? estimateBytes(settings, source) : 0,
    recipe: () => buildRecipe(settings, source?.gifId ?? null),
    data: () => ({ title: title.trim(), description: description.trim(), tags }),
  };
}
