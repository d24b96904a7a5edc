/**
 * A stored message's columns as the outbox reads them back: its state, its payload and spam
 * reasons (JSON text), and the part of its sender's address that outlives retention.
 */
import { z } from 'zod';
import type { ContactMessage } from '@site/contracts/contact';

export type MessageStatus = 'queued' | 'delivered' | 'failed' | 'spam';
export const MESSAGE_STATUSES: readonly MessageStatus[] = ['queued', 'delivered', 'failed', 'spam'];

// What was stored is read back leniently: a message accepted under older rules is still delivered.
const storedPayload = z.object({
  user: z.object({ name: z.string(), email: z.string() }),
  message: z.object({ subject: z.string(), body: z.string() }),
  website: z.string().optional(),
});

export function readPayload(text: string | null): ContactMessage | undefined {
  if (text === null) return undefined;
  try {
    const parsed = storedPayload.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The part of an address that is kept after retention: its mail domain. */
export const emailDomainOf = (email: string) =>
  email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** Spam reasons as stored (a JSON array, or NULL), read back. */
export function readReasons(text: string | null): string[] {
  if (text === null) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}
