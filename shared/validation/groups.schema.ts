// shared/validation/groups.schema.ts — what the group routes (分组, 特别关注) accept. The name's
// own rules (length, duplicates, control characters) are the domain's (domain/groups.ts): its
// 4xx says which; here only the shape.
import * as z from 'zod';
import { handleSchema } from './accounts.schema.js';
import { pageQuery } from './feed.schema.js';

const groupId = z.string().max(16).meta({ description: 'A group id: `special` (特别关注) or one the create answered' });

export const groupsPath = z.object({ handle: handleSchema });
export const groupPath = z.object({ handle: handleSchema, groupId });
export const groupMemberPath = z.object({ handle: handleSchema, groupId, member: handleSchema });

export const groupsQuery = z.strictObject({
  member: handleSchema.optional().meta({ description: 'Also say, per group, whether it holds this person' }),
});

export const groupNameBody = z.strictObject({
  name: z.string().max(200).meta({ description: 'The group’s name: 1–20 characters, unlike your other groups’' }),
});

export const groupTimelineQuery = pageQuery;
