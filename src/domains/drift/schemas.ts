import { Type } from 'typebox';
import { TakeOnlyQuery } from '../../http/query';
import { DateTime, Uuid } from '../../http/schemas';

/** Request and response shapes of the drift endpoint (docs/package-intelligence.md#drift). */

const NullableNumber = Type.Union([Type.Number(), Type.Null()]);

export const DriftHistoryQuery = Type.Object({ ...TakeOnlyQuery });

export const DriftHistory = Type.Object({
  repositoryId: Uuid,
  items: Type.Array(
    Type.Object({
      scanId: Uuid,
      scannedAtUtc: DateTime,
      computedAtUtc: DateTime,
      dependencyCount: Type.Integer(),
      measuredCount: Type.Integer(),
      pendingCount: Type.Integer(),
      outdatedCount: Type.Integer(),
      libyearTotal: Type.Number(),
      libyearPerDependency: NullableNumber,
      majorBehind: Type.Integer(),
      minorBehind: Type.Integer(),
      patchBehind: Type.Integer(),
      deprecatedCount: Type.Integer(),
      yankedCount: Type.Integer(),
      endOfLifeCount: Type.Integer(),
    }),
  ),
  totalReturned: Type.Integer(),
  take: Type.Integer(),
});
