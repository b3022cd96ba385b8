import type { paths } from '../../api/schema';

/** The editor's form and the bodies it sends (pure, so the screen computes nothing else). */
export type PolicyBody =
  paths['/api/v1/policies']['post']['requestBody']['content']['application/json'];
export type DryRun =
  paths['/api/v1/policies/{policyId}/test']['post']['responses'][200]['content']['application/json'];

export interface PolicyForm {
  name: string;
  description: string;
  condition: string;
  severity: string;
  action: string;
  enabled: boolean;
  ecosystems: string;
  repositoryIds: string;
}

export const EMPTY_FORM: PolicyForm = {
  name: '',
  description: '',
  condition: '',
  severity: 'high',
  action: 'warn',
  enabled: true,
  ecosystems: '',
  repositoryIds: '',
};

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '');

export function policyBody(form: PolicyForm, enabled: boolean): PolicyBody {
  return {
    name: form.name.trim(),
    description: form.description.trim(),
    condition: form.condition,
    severity: form.severity,
    action: form.action,
    enabled,
    scope: { ecosystems: list(form.ecosystems), repositoryIds: list(form.repositoryIds) },
  };
}

/** What a dry run depends on: a change to any of it asks for a new dry run before saving. */
export function dryRunKey(form: PolicyForm): string {
  return JSON.stringify([form.condition, list(form.ecosystems), list(form.repositoryIds)]);
}
