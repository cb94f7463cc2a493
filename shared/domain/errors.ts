// shared/domain/errors.ts — the errors use cases throw. One base class; each says WHAT went
// wrong in domain terms. Only shared/http/error-mapper.ts turns them into HTTP statuses.

export abstract class DomainError extends Error {
  /** Stable machine-readable code for clients, e.g. `handle_taken`. */
  abstract readonly code: string;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Input is well-formed but breaks a rule (e.g. following yourself). */
export class InvalidInputError extends DomainError {
  constructor(message: string, readonly code = 'invalid_input') {
    super(message);
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string, readonly code = 'not_found') {
    super(message);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, readonly code = 'conflict') {
    super(message);
  }
}

/** The thing existed and is gone for good (a deleted post an idempotent retry names). */
export class GoneError extends DomainError {
  constructor(message: string, readonly code = 'gone') {
    super(message);
  }
}

/** Missing, bad or expired credentials. Deliberately vague: never says which part was wrong. */
export class AuthenticationError extends DomainError {
  constructor(message = 'Invalid credentials', readonly code = 'unauthorized') {
    super(message);
  }
}

/** Authenticated, but the acting user may not do this to that resource. */
export class ForbiddenError extends DomainError {
  constructor(message = 'Not allowed', readonly code = 'forbidden') {
    super(message);
  }
}

export class RateLimitedError extends DomainError {
  constructor(message: string, readonly retryAfterSeconds: number, readonly code = 'rate_limited') {
    super(message);
  }
}
