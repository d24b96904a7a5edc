/**
 * Reading the request body as JSON: declared as JSON in UTF-8, at most BODY_LIMIT_BYTES on the
 * wire, valid UTF-8 and one JSON value; each failure answered with its own error code.
 */
import { isUtf8 } from 'node:buffer';
import { parse as parseContentType } from 'content-type';
import express, { type RequestHandler } from 'express';
import { BODY_LIMIT_BYTES } from '../config';
import { sendError } from '../errors';

type JsonBody = { ok: true; value: unknown } | { ok: false; error: string; message: string };

/** The request body as JSON: UTF-8 only (invalid bytes are refused, not replaced), one value. */
export function parseJson(body: unknown): JsonBody {
  if (!Buffer.isBuffer(body) || body.length === 0) {
    return {
      ok: false,
      error: 'empty_body',
      message: 'The request has no body: send the message as JSON.',
    };
  }
  if (!isUtf8(body)) {
    return {
      ok: false,
      error: 'invalid_encoding',
      message: 'The request body is not valid UTF-8 text.',
    };
  }
  let text = body.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, error: 'invalid_json', message: 'The request body is not valid JSON.' };
  }
}

/** 415 unless the body is declared as JSON in UTF-8 (the only charset JSON may use on the wire). */
export const requireJson: RequestHandler = (req, res, next) => {
  let charset: string | undefined;
  try {
    charset = parseContentType(req.get('content-type') ?? '').parameters.charset?.toLowerCase();
  } catch {
    charset = 'invalid';
  }
  if (
    req.is('application/json') !== 'application/json' ||
    (charset && charset !== 'utf-8' && charset !== 'utf8')
  ) {
    return sendError(
      res,
      415,
      'unsupported_media_type',
      'Send the message as JSON, with Content-Type: application/json.',
    );
  }
  next();
};

// Read as bytes so that invalid UTF-8 can be refused instead of silently turned into U+FFFD.
// Compressed bodies are refused (inflate: false): the size limit must be the size on the wire.
export const readBody = express.raw({ type: () => true, limit: BODY_LIMIT_BYTES, inflate: false });
