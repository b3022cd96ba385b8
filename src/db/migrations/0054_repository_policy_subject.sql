-- Repository conditions (docs/policies.md#repository-conditions): a policy whose condition reads
-- the repository's quantum facts holds for the repository, not for one of its dependencies. Its
-- violation keeps the one identity every violation, exception, IDE verdict and the CI gate know
-- (policy, repository, package, version) with this catalogue entry as its package: the
-- repository's own code. No repository depends on it, so no tenant's package list shows it and
-- no registry is asked about it.
INSERT INTO packages (id, ecosystem, name, purl)
VALUES ('00000000-0000-4000-8000-00000000c0de', 'first-party', 'first-party code',
  'pkg:generic/driftwatch/first-party-code')
ON CONFLICT DO NOTHING;
