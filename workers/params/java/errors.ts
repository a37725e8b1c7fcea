import { ApiError } from '../../errors.ts';

/**
 * The error bodies of the reference's Java process. Most carry the status phrase as `message` and the reason as
 * `detail` (`{"message":"Bad Request","detail":"Failed to convert 'timestamp'"}`); a request object that fails to
 * bind lists `Invalid parameter: <name>` messages without detail, as the JavaScript process does.
 */

export const javaBadRequest = (detail: string): ApiError => new ApiError(400, { message: 'Bad Request', detail });

export const javaNotFound = (detail: string): ApiError => new ApiError(404, { message: 'Not Found', detail });

/** A controller method parameter (`@RequestParam`) whose value does not convert to its type. */
export const conversionFailed = (name: string): ApiError => javaBadRequest(`Failed to convert '${name}'`);

/** A request object's fields that failed to convert or validate, in the order the binder reports them. */
export const bindingFailed = (names: readonly string[]): ApiError => ApiError.invalidParams(names);
