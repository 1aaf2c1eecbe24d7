import { z } from 'zod';

/** The signed-in person, as the app shell needs them. */
export const MeSchema = z.object({
  user: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  platformAdmin: z.boolean(),
});
export type Me = z.infer<typeof MeSchema>;
