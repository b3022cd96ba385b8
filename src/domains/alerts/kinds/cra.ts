import { Type } from 'typebox';
import { defineKind } from './types';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const KIND_TITLES = {
  early_warning: 'early warning',
  notification: 'notification',
  final_report: 'final report',
} as const;

/**
 * An Article 14 clock falls due (docs/cra.md#article-14-clocks): `due_soon` once a quarter of
 * its span (at most 24 h) is left, `missed` when its due time passed without a submission.
 * One alert per clock and stage; the repositories are the product's linked ones.
 */
export const craClockDue = defineKind({
  kind: 'cra_clock_due',
  description: 'A CRA Article 14 reporting clock falls due soon or was missed',
  event: 'cra.clock_due',
  settingsSchema: Type.Object({}, { additionalProperties: false }),
  payloadSchema: Type.Object({
    clockId: Type.String({ format: 'uuid' }),
    productId: Type.String({ format: 'uuid' }),
    productName: Type.String(),
    trigger: Type.Union([Type.Literal('vulnerability'), Type.Literal('incident')]),
    kind: Type.Union([
      Type.Literal('early_warning'),
      Type.Literal('notification'),
      Type.Literal('final_report'),
    ]),
    stage: Type.Union([Type.Literal('due_soon'), Type.Literal('missed')]),
    dueAt: Type.String({ format: 'date-time' }),
    vulnerabilityId: Nullable(Type.String({ format: 'uuid' })),
    incidentId: Nullable(Type.String({ format: 'uuid' })),
  }),
  candidates: async (db, data) => {
    const product = await db
      .selectFrom('cra_products')
      .select('name')
      .where('id', '=', data.productId)
      .executeTakeFirst();
    if (!product) return [];
    const repositories = await db
      .selectFrom('cra_product_repositories')
      .select('repository_id')
      .where('product_id', '=', data.productId)
      .orderBy('repository_id')
      .execute();
    const what = `${KIND_TITLES[data.kind]} for ${product.name}`;
    return [
      {
        subject: `${data.clockId}:${data.stage}`,
        severity: data.stage === 'missed' ? 'critical' : 'high',
        repositoryIds: repositories.map((r) => r.repository_id),
        packageId: null,
        ecosystem: null,
        title:
          data.stage === 'missed'
            ? `CRA ${what} missed (was due ${data.dueAt})`
            : `CRA ${what} due at ${data.dueAt}`,
        payload: { ...data, productName: product.name },
      },
    ];
  },
});
