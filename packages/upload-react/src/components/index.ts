/**
 * @module
 * `@upbeam/upload-react/components`: ready-made upload components over `useS3Upload` and `useDropZone`:
 * {@link Uploader} (all in one), {@link UploadDropzone}, {@link UploadButton} and {@link UploadList}.
 * Their look is `@upbeam/upload-react/components.css` (CSS custom properties, light and dark), or none
 * with `unstyled`.
 */
export { Uploader, type UploaderProps } from './uploader';
export { UploadDropzone, type UploadDropzoneProps } from './upload-dropzone';
export { UploadButton, type UploadButtonProps } from './upload-button';
export { UploadList, type UploadListProps } from './upload-list';
export type { UploadSourceProps } from './upload-source';
export type { UploadAppearance, UploadPart } from './parts';
export { DEFAULT_LABELS, formatTimeLeft, type RejectionLabels, type UploadLabelOverrides, type UploadLabels, type UploadLocale } from './labels';
export { announcement, summaryText } from './format';
export { useLeaveWarning } from './leave-warning';
