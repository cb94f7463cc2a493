// infra/plugins/web-upload-plan.d.cts — types for infra/plugins/web-upload-plan.cjs (load it with
// createRequire).

export interface PlannedUpload {
  /** the path as given (relative to the build folder) */
  readonly file: string;
  /** the S3 object key: posix separators, no leading slash */
  readonly key: string;
  readonly contentType: string;
  readonly cacheControl: string;
  /** upload order: every file of a tier before any of the next (0 hashed bundles … 3 index.html) */
  readonly tier: 0 | 1 | 2 | 3;
}

export interface UploadPlan {
  /** in upload order: hashed bundles first, index.html last */
  readonly uploads: PlannedUpload[];
  /** keys in the bucket that the build no longer has */
  readonly deletions: string[];
  /** CloudFront paths to invalidate (never a hashed bundle) */
  readonly invalidationPaths: string[];
}

export declare const CACHE_NO_CACHE: string;
export declare const CACHE_IMMUTABLE: string;
export declare const CACHE_ONE_DAY: string;
export declare const DEFAULT_CONTENT_TYPE: string;
export declare const MAX_LISTED_INVALIDATION_PATHS: number;
export declare function toKey(file: string): string;
export declare function contentTypeFor(key: string): string;
export declare function cacheControlFor(key: string): string;
export declare function isHashed(key: string): boolean;
export declare function planUpload(input: { files: string[]; existingKeys?: string[] }): UploadPlan;
