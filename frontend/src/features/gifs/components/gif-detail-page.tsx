import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { GifDto } from '@/api/generated/GifDto';
import { paths } from '@/app/paths';
import { AddGifToCollection } from '@/components/add-to-collection/add-to-collection-menu';
import { useToast } from '@/components/toast/toast-provider';
import { ApiError, errorMessage } from '@/lib/api-client';
import { usePrefersReducedMotion } from '@/lib/reduced-motion';
import { useIsAdmin, useUsername } from '@/lib/session';
import { useDeleteGif } from '../api/delete-gif';
import { useGif } from '../api/get-gif';
import { forgetGif } from '../gif-list-cache';
import { chooseMedia } from '../renditions';
import { gifPermissions } from '../permissions';
import { EditGifForm } from './edit-gif-form';
import { useMotionGate } from './animated-media';
import { RenditionModal, type Rendition } from './rendition-modal';
import { EmbedCodes } from './embed-codes';
import { LooksLike } from './looks-like';
import {
  FileInformation,
  GifAbout,
  GifFigure,
  MadeFrom,
  RenditionList,
  TextInGif,
  VideoFiles,
} from './gif-detail-sections';
import { HiddenNotice } from '@/features/moderation/components/hidden-notice';
import { ReportDialog } from '@/features/moderation/components/report-dialog';
import './gifs.css';

export const MSG_DELETE_CONFIRM = 'Are you sure you want to delete this GIF?';
export const MSG_GIF_DELETED = 'GIF deleted successfully';
/** Anyone who can see a GIF may make their own copy of it in the maker. */
export const MSG_EDIT_A_COPY = 'Edit a copy';

const parseId = (raw: string | undefined): number | null =>
  raw && /^\d+$/.test(raw) ? Number(raw) : null;

/** /gifs/:id — the GIF, its renditions, file information, share link, and owner actions. */
export function GifDetailPage() {
  const { id: rawId } = useParams();
  const id = parseId(rawId);
  const gif = useGif(id ?? 0, id !== null);

  if (id === null || (gif.isError && gif.error instanceof ApiError && gif.error.status === 404)) {
    return (
      <DetailMessage>
        <p className="gallery__empty" role="status">
          GIF not found
        </p>
      </DetailMessage>
    );
  }
  if (gif.isPending) {
    return (
      <p className="state-line" role="status">
        Loading GIF...
      </p>
    );
  }
  if (gif.isError) {
    return (
      <DetailMessage>
        <p className="form-message form-message--error" role="alert">
          {errorMessage(gif.error, 'Failed to load GIF')}
        </p>
      </DetailMessage>
    );
  }
  return <GifDetail key={gif.data.id} gif={gif.data} />;
}

function DetailMessage({ children }: { children: ReactNode }) {
  return (
    <div className="detail-message">
      {children}
      <Link to={paths.gifs} className="btn btn--secondary">
        Back to Gallery
      </Link>
    </div>
  );
}

/** Asks, deletes the GIF, then goes home and drops it from the cached lists (or says why not). */
function useDeleteAndLeave(gif: GifDto) {
  const navigate = useNavigate();
  const toast = useToast();
  const remove = useDeleteGif();
  const queryClient = useQueryClient();

  const onDelete = () => {
    if (!window.confirm(MSG_DELETE_CONFIRM)) return;
    remove.mutate(gif.id, {
      onSuccess: () => {
        toast.success(MSG_GIF_DELETED);
        void Promise.resolve(navigate(paths.home)).then(() => forgetGif(queryClient, gif.id));
      },
      onError: (error) => toast.error(errorMessage(error, 'Failed to delete GIF')),
    });
  };
  return { onDelete, deleting: remove.isPending };
}

/**
 * Whether the figure shows the GIF's poster alone first (`StreamedImage`): it has one, plays no
 * video, and motion is not reduced (then the figure shows the poster as its still, no more).
 */
function paintsPosterFirst(gif: GifDto, reduced: boolean): boolean {
  const choice = chooseMedia(gif, 'full');
  return !reduced && choice.poster !== null && choice.videos.length === 0;
}

function GifDetail({ gif }: { gif: GifDto }) {
  const [editing, setEditing] = useState(false);
  const [natural, setNatural] = useState(false);
  const [opened, setOpened] = useState<Rendition | null>(null);
  // Under reduced motion the GIF shows its still until the figure is hovered, focused or tapped.
  const motion = useMotionGate();
  const { onDelete, deleting } = useDeleteAndLeave(gif);
  const [reporting, setReporting] = useState(false);
  const isAdmin = useIsAdmin();
  // The GIF's poster is the page's first picture: the renditions' tiles and the similar GIFs
  // (a few hundred kilobytes on a phone) are asked for once it has been painted.
  const [posterShown, setPosterShown] = useState(false);
  const reduced = usePrefersReducedMotion();
  const secondaryImages = posterShown || !paintsPosterFirst(gif, reduced);

  if (editing) return <EditGifForm gif={gif} onDone={() => setEditing(false)} />;

  return (
    <article className="gif-detail" aria-labelledby="gif-title">
      <h1 id="gif-title" className="page-title gif-detail__title">
        {gif.title}
      </h1>
      <HiddenNotice gif={gif} isAdmin={isAdmin} />

      <div className="gif-detail__layout">
        <div className="gif-detail__main">
          <GifFigure
            gif={gif}
            natural={natural}
            onToggleNatural={() => setNatural((n) => !n)}
            motion={motion}
            onPosterShown={() => setPosterShown(true)}
          />
          <RenditionList gif={gif} onOpen={setOpened} showImages={secondaryImages} />
          <VideoFiles gif={gif} />
        </div>

        <aside className="gif-detail__side">
          <GifAbout gif={gif} />
          <TextInGif gif={gif} />
          <MadeFrom gif={gif} />
          <FileInformation gif={gif} />
          <section className="panel gif-detail__share">
            <EmbedCodes gif={gif} />
          </section>
          {secondaryImages && <LooksLike id={gif.id} />}
        </aside>
      </div>

      <DetailFooter
        gif={gif}
        onEdit={() => setEditing(true)}
        onDelete={onDelete}
        deleting={deleting}
        onReport={() => setReporting(true)}
      />
      {reporting && <ReportDialog gifId={gif.id} title={gif.title} onClose={() => setReporting(false)} />}

      {opened && <RenditionModal rendition={opened} title={gif.title} onClose={() => setOpened(null)} />}
    </article>
  );
}

type DetailFooterProps = {
  gif: GifDto;
  onEdit: () => void;
  onDelete: () => void;
  /** A delete is under way. */
  deleting: boolean;
  /** Opens the report dialog (offered on other people's GIFs). */
  onReport: () => void;
};

/** Back to the gallery; add to a collection; Report on others' GIFs; Edit and Delete for those allowed to. */
function DetailFooter({ gif, onEdit, onDelete, deleting, onReport }: DetailFooterProps) {
  const username = useUsername();
  const isAdmin = useIsAdmin();
  const { canEdit, canDelete } = gifPermissions(gif, username, isAdmin);
  return (
    <footer className="gif-detail__footer">
      <Link to={paths.gifs} className="btn btn--secondary">
        Back to Gallery
      </Link>
      <div className="gif-detail__actions">
        <AddGifToCollection gifId={gif.id} />
        <Link to={paths.makeFrom(gif.id)} className="btn btn--secondary">
          {MSG_EDIT_A_COPY}
        </Link>
        {username !== gif.uploadedBy && !gif.hidden && (
          <button type="button" className="btn btn--secondary" onClick={onReport}>
            Report
          </button>
        )}
        {canEdit && (
          <button type="button" className="btn btn--primary" onClick={onEdit}>
            Edit
          </button>
        )}
        {canDelete && (
          <button type="button" className="btn btn--danger" onClick={onDelete} disabled={deleting}>
            Delete
          </button>
        )}
      </div>
    </footer>
  );
}
