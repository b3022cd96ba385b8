import { createHmac } from 'node:crypto';

/**
 * A billing provider for the tests (docs/billing.md#signatures): builds events, signs each
 * delivery as the provider does (HMAC-SHA256 of `<unix seconds>.<raw body>`, in
 * X-Billing-Provider-Signature as `v1=<hex>`, several during a rotation), and sends them through
 * the given transport; it can replay, reorder, hold back (delay) and corrupt deliveries, and
 * retries a delivery answered 5xx the way the provider does.
 */
export interface SimulatedResponse {
  statusCode: number;
  body: string;
}

export type Transport = (delivery: {
  headers: Record<string, string>;
  payload: Buffer;
}) => Promise<SimulatedResponse>;

export interface SimulatedEvent {
  id: string;
  type: string;
  created: string;
  data: Record<string, unknown>;
}

export interface SignOptions {
  /** Signing time offset from the clock, seconds (negative: signed in the past). */
  skewSeconds?: number;
  /** Sign with these secrets instead of the simulator's (one v1 per secret). */
  secrets?: string[];
  /** Leave out a header, or send a malformed one. */
  omit?: 'timestamp' | 'signature';
  signatureHeader?: string;
  /** Change the body after signing: flip the byte at this index. */
  flipByteAt?: number;
  /** Send these bytes instead of the event's JSON (signed as they are). */
  rawBody?: Buffer;
}

export class BillingProviderSimulator {
  private clock: number;
  private counter = 0;
  readonly sent: SimulatedEvent[] = [];
  private held: SimulatedEvent[] = [];

  constructor(
    private readonly transport: Transport,
    public secrets: string[],
    startMs = Date.now() - 3_600_000,
  ) {
    this.clock = startMs;
  }

  /** A new event; each one a second after the previous (the provider's event time). */
  event(type: string, data: Record<string, unknown>, at?: Date): SimulatedEvent {
    this.counter++;
    this.clock += 1000;
    return {
      id: `evt_${this.counter.toString().padStart(6, '0')}_${Math.random().toString(36).slice(2, 8)}`,
      type,
      created: (at ?? new Date(this.clock)).toISOString(),
      data,
    };
  }

  signedDelivery(event: SimulatedEvent, options: SignOptions = {}) {
    const payload = options.rawBody ?? Buffer.from(JSON.stringify(event));
    const timestamp = Math.floor(Date.now() / 1000) + (options.skewSeconds ?? 0);
    const secrets = options.secrets ?? this.secrets;
    const signature = secrets
      .map(
        (secret) =>
          `v1=${createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest('hex')}`,
      )
      .join(', ');
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.omit !== 'timestamp') headers['x-billing-provider-timestamp'] = String(timestamp);
    if (options.omit !== 'signature') {
      headers['x-billing-provider-signature'] = options.signatureHeader ?? signature;
    }
    const sentPayload = Buffer.from(payload);
    if (options.flipByteAt !== undefined) {
      const index = options.flipByteAt;
      sentPayload[index] = (sentPayload[index] ?? 0) ^ 0x01;
    }
    return { headers, payload: sentPayload };
  }

  /** One delivery attempt. */
  async deliver(event: SimulatedEvent, options: SignOptions = {}): Promise<SimulatedResponse> {
    this.sent.push(event);
    return this.transport(this.signedDelivery(event, options));
  }

  /**
   * Delivers until a non-5xx answer, re-signing each attempt (the provider's retry), at most
   * `attempts` times; returns every answer.
   */
  async deliverWithRetry(event: SimulatedEvent, attempts = 5): Promise<SimulatedResponse[]> {
    const answers: SimulatedResponse[] = [];
    for (let attempt = 0; attempt < attempts; attempt++) {
      const answer = await this.deliver(event);
      answers.push(answer);
      if (answer.statusCode < 500) break;
    }
    return answers;
  }

  /** Sends an event delivered before again (a replay), freshly signed. */
  replay(event: SimulatedEvent): Promise<SimulatedResponse> {
    return this.deliver(event);
  }

  /** Holds an event back, to be delivered later by `flush` (a delayed delivery). */
  hold(event: SimulatedEvent): void {
    this.held.push(event);
  }

  /** Delivers the held events, in the given order (`reverse` reorders them). */
  async flush(order: 'fifo' | 'reverse' = 'fifo'): Promise<SimulatedResponse[]> {
    const events = order === 'reverse' ? [...this.held].reverse() : [...this.held];
    this.held = [];
    const answers: SimulatedResponse[] = [];
    for (const event of events) answers.push(await this.deliver(event));
    return answers;
  }

  /** Delivers the events in a shuffled order (seeded, so a failure can be reproduced). */
  async deliverShuffled(events: SimulatedEvent[], seed: number): Promise<SimulatedResponse[]> {
    const order = [...events];
    let state = seed;
    for (let i = order.length - 1; i > 0; i--) {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      const j = state % (i + 1);
      [order[i], order[j]] = [order[j] as SimulatedEvent, order[i] as SimulatedEvent];
    }
    const answers: SimulatedResponse[] = [];
    for (const event of order) answers.push(await this.deliver(event));
    return answers;
  }
}
