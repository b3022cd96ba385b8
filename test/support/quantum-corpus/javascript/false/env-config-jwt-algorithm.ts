import { z } from 'zod';

const schema = z.object({
  JWT_ALGORITHM: z.enum(['RS256', 'ES256']).default('RS256'),
  RSA_KEY_BITS: z.coerce.number().default(3072),
  JWKS_URL: z.string().url(),
});

export const env = schema.parse(process.env);
export const algorithm = env.JWT_ALGORITHM;
