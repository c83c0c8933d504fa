import { useState, type ChangeEvent, type DragEvent } from 'react';

/**
 * A drop zone and its file input: `onFiles` gets what was dropped or picked (the input is
 * cleared, so picking the same file again fires again); `dragging` is true while files hover.
 * Spread `zone` on the drop zone and `input` on the `<input type="file">`.
 */
export function useFileDrop(onFiles: (files: FileList | null | undefined) => void) {
  const [dragging, setDragging] = useState(false);
  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  return {
    dragging,
    zone: {
      onDragEnter: onDragOver,
      onDragOver,
      onDragLeave: () => setDragging(false),
      onDrop: (event: DragEvent<HTMLDivElement>) => {
        event.preventDefault();
        setDragging(false);
        onFiles(event.dataTransfer.files);
      },
    },
    input: {
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        onFiles(event.target.files);
        event.target.value = '';
      },
    },
  };
}
