// shared/ports/export-files.ts — where a user's data export (use-cases/export-data.ts) is kept
// for its download: one JSON file per build, handed out as a short-lived link. S3 deployed (the
// media bucket, under exports/, which a lifecycle rule empties after a day); the local
// S3-compatible server locally (adapters/s3/s3-media-objects.ts).

export interface ExportFiles {
  /** Stores one export (JSON text) under `key`; the same key again replaces it. */
  putExport(key: string, json: string): Promise<void>;
  /** A GET of the export at `key` that works for `seconds`: the link the user downloads it by. */
  exportUrl(key: string, seconds: number): Promise<{ url: string; expiresAt: number }>;
}
