// shared/validation/messages.schema.ts — edge validation for private messages (私信). The use
// case applies the product limits (text length in characters, pictures, who may write) with
// their own error codes; the edge checks the shapes.
import * as z from 'zod';
import { CLIENT_ID_PATTERN, MESSAGE_PICTURES_MAX, MESSAGE_TEXT_MAX } from '../domain/messages.js';
import { handleSchema } from './accounts.schema.js';
import { humanText } from './text.js';

export const conversationPath = z.object({
  handle: handleSchema.meta({ description: 'You: the token’s user' }),
  peer: handleSchema.meta({ description: 'The other person' }),
});

export const messagePath = conversationPath.extend({
  seq: z.coerce
    .number()
    .int()
    .min(1)
    .max(999_999_999_999)
    .meta({ description: 'The message’s number in the conversation' }),
});

export const conversationsQuery = z.strictObject({
  box: z.enum(['main', 'requests']).default('main').meta({
    description: 'main: your conversations; requests: first messages from people your setting did not admit',
  }),
  limit: z.coerce.number().int().min(1).max(50).default(20).meta({ description: 'Page size' }),
  cursor: z.string().max(600).optional().meta({ description: 'The `nextCursor` of the previous page' }),
});

export const conversationQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(30).meta({ description: 'Messages per page' }),
  cursor: z.string().max(100).optional().meta({ description: 'The `nextCursor` of the previous page: older messages' }),
});

export const sendBody = z.strictObject({
  text: humanText({ min: 0, max: MESSAGE_TEXT_MAX, allowNewlines: true, label: 'text' }).meta({
    description: `At most ${MESSAGE_TEXT_MAX} characters; may be empty when the message carries pictures`,
  }),
  media: z
    .array(z.string().min(1).max(64))
    .max(MESSAGE_PICTURES_MAX)
    .optional()
    .meta({ description: `Up to ${MESSAGE_PICTURES_MAX} media ids of your uploads with purpose \`message\`` }),
  clientId: z.string().regex(CLIENT_ID_PATTERN).meta({
    description:
      'Your id for this message (1–64 of A–Z a–z 0–9 _ -): send the same one again on a retry and the message is sent once',
  }),
});

export const readBody = z.strictObject({
  upTo: z.int().min(1).max(999_999_999_999).meta({ description: 'The newest message number you have shown' }),
});
