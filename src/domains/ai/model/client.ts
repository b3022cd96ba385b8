import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import type { AiModelConfig } from '../../../config';
import { guardedFetch, type OutboundPolicy, type Resolver } from '../../../security/outbound-guard';
import { type Cidr, parseCidr } from '../../../security/outbound-guard-ranges';
import type { SecretBox } from '../../../security/secret-box';

/**
 * A small client of an OpenAI-compatible chat-completions API (docs/questions.md#the-optional-model).
 * The endpoint is the operator's, but it goes through the outbound guard like a tenant's address:
 * an internal address is refused unless AI_MODEL_ALLOW_CIDRS names its network, the connection is
 * pinned to the checked address and no redirect is followed. The key is kept sealed with the
 * secret box and opened for each call only. Every failure (refused, timed out, an error status,
 * an unreadable body) is `null`: the caller goes on without the model.
 */

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

export interface ModelClient {
  complete: (messages: ChatMessage[]) => Promise<string | null>;
}

/** Why the last calls failed, for the server log only (never for the caller). */
export type ModelFailure = (reason: string) => void;

const Completion = Type.Object({
  choices: Type.Array(
    Type.Object({ message: Type.Object({ content: Type.Union([Type.String(), Type.Null()]) }) }),
    { minItems: 1 },
  ),
});
const completionCheck = Compile(Completion);

const MAX_ANSWER_CHARS = 20_000;

/** The configured key, sealed: a `v1.…` value is already sealed with the master key. */
function sealedKey(apiKey: string | null, box: SecretBox): string | null {
  if (!apiKey) return null;
  if (/^v1\.[\w-]+\.[\w-]+\.[\w-]*$/.test(apiKey)) {
    box.open(apiKey); // refuses a value sealed with another key at start, not at the first call
    return apiKey;
  }
  return box.seal(apiKey);
}

export function createModelClient(
  settings: AiModelConfig,
  box: SecretBox,
  options: { resolve?: Resolver; onFailure?: ModelFailure } = {},
): ModelClient {
  const key = sealedKey(settings.apiKey, box);
  const allow = settings.allowCidrs.map(parseCidr).filter((c): c is Cidr => c !== null);
  const policy: OutboundPolicy = options.resolve ? { allow, resolve: options.resolve } : { allow };
  const fail = (reason: string) => {
    options.onFailure?.(reason);
    return null;
  };
  return {
    async complete(messages) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (key) headers.authorization = `Bearer ${box.open(key)}`;
      try {
        const response = await guardedFetch(
          `${settings.baseUrl}/chat/completions`,
          {
            method: 'POST',
            headers,
            body: JSON.stringify({ model: settings.model, messages, temperature: 0 }),
            signal: AbortSignal.timeout(settings.timeoutMs),
          },
          { policy, protocols: ['https:', 'http:'], connectTimeoutMs: settings.timeoutMs },
        );
        if (!response.ok) {
          await response.body?.cancel().catch(() => {});
          return fail(`model answered ${response.status}`);
        }
        const body: unknown = await response.json();
        if (!completionCheck.Check(body)) return fail('model answer is not a chat completion');
        const content = body.choices[0]?.message.content ?? null;
        if (content === null || content.length > MAX_ANSWER_CHARS) return fail('no usable content');
        return content;
      } catch (error) {
        return fail(
          error instanceof Error ? `${error.name}: ${error.message}` : 'model call failed',
        );
      }
    },
  };
}
