// shared/domain/errors.ts — the errors use cases throw. One base class; each says WHAT went
// wrong in domain terms, with a code of the one list (error-codes.ts). Only
// shared/http/error-mapper.ts turns them into HTTP statuses.
import type { ErrorCode } from './error-codes.js';

export abstract class DomainError extends Error {
  /** Stable machine-readable code for clients, e.g. `handle_taken`. */
  abstract readonly code: ErrorCode;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Input is well-formed but breaks a rule (e.g. following yourself). */
export class InvalidInputError extends DomainError {
  constructor(
    message: string,
    readonly code: ErrorCode,
  ) {
    super(message);
  }
}

export class NotFoundError extends DomainError {
  constructor(
    message: string,
    readonly code: ErrorCode,
  ) {
    super(message);
  }
}

export class ConflictError extends DomainError {
  constructor(
    message: string,
    readonly code: ErrorCode,
  ) {
    super(message);
  }
}

/** The thing existed and is gone for good (a deleted post an idempotent retry names). */
export class GoneError extends DomainError {
  constructor(
    message: string,
    readonly code: ErrorCode,
  ) {
    super(message);
  }
}

/** The request named a version of the resource that is no longer its current one (If-Match). */
export class PreconditionFailedError extends DomainError {
  constructor(
    message: string,
    readonly code: ErrorCode,
  ) {
    super(message);
  }
}

/** The change must name the version it was made on (If-Match), and did not. */
export class PreconditionRequiredError extends DomainError {
  constructor(
    message: string,
    readonly code: ErrorCode,
  ) {
    super(message);
  }
}

/** Missing, bad or expired credentials. Deliberately vague: never says which part was wrong. */
export class AuthenticationError extends DomainError {
  constructor(
    message = 'Invalid credentials',
    readonly code: ErrorCode = 'unauthorized',
  ) {
    super(message);
  }
}

/** Authenticated, but the acting user may not do this to that resource. */
export class ForbiddenError extends DomainError {
  constructor(
    message = 'Not allowed',
    readonly code: ErrorCode = 'forbidden',
  ) {
    super(message);
  }
}

export class RateLimitedError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    readonly code: ErrorCode = 'rate_limited',
  ) {
    super(message);
  }
}
