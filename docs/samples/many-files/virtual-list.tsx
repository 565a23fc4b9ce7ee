// A plain `useS3Upload` list of 50,000 rows: the ids from `useTrackedIds`, each row reading its own file, and only
// the rows in view mounted (TanStack Virtual: `npm install @tanstack/react-virtual`).
import { useVirtualizer } from '@tanstack/react-virtual';
import { useDropZone, useS3Upload, useTrackedFile, useTrackedIds, type UseS3Upload } from '@upbeam/upload-react';
import { memo, useRef } from 'react';

/** Every row one line of this height (CSS pixels): the virtualizer places rows without measuring them. */
const ROW_PX = 28;

const Row = memo(function Row({ tracker, id, top }: { tracker: UseS3Upload['tracker']; id: string; top: number }) {
  const file = useTrackedFile(tracker, id);
  if (!file) return null;
  return (
    <li style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_PX, transform: `translateY(${top}px)` }}>
      {file.path ?? file.file.name} <progress value={file.progress} max={100} /> {file.status}
    </li>
  );
});

function Rows({ tracker }: { tracker: UseS3Upload['tracker'] }) {
  const ids = useTrackedIds(tracker);
  const scroller = useRef<HTMLDivElement>(null);
  const rows = useVirtualizer({ count: ids.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_PX, overscan: 10 });
  return (
    <div ref={scroller} style={{ height: 480, overflow: 'auto' }}>
      <ul style={{ position: 'relative', height: rows.getTotalSize(), margin: 0, padding: 0, listStyle: 'none' }}>
        {rows.getVirtualItems().map((row) => (
          <Row key={ids[row.index]} tracker={tracker} id={ids[row.index]!} top={row.start} />
        ))}
      </ul>
    </div>
  );
}

export function FolderUploader() {
  const upload = useS3Upload({ endpoint: { url: '/api/s3-upload' } });
  const { getRootProps, getInputProps } = useDropZone({ onDrop: (accepted) => upload.addFiles(accepted) });
  const { count, progress } = upload.summary;
  return (
    <section>
      <div {...getRootProps({ className: 'zone' })}>
        <input {...getInputProps()} />
        Drop a folder here
      </div>
      <p>
        {count.done} stored of {upload.tracker.getIds().length}, {progress.toFixed(0)} %{' '}
        <button onClick={() => upload.cancel()}>Cancel all</button> <button onClick={upload.resetFiles}>Clear list</button>
      </p>
      <Rows tracker={upload.tracker} />
    </section>
  );
}
