/**
 * The scenario builders of the test suite (README.md here): one import for a test that sets up
 * tenants, repositories, scans, advisories, policies or CRA products. Importing this index puts a
 * test in the database tier (it reaches the test app); a unit-tier test imports the pure
 * `./advisory-records` or `./packages` directly.
 */
export { createTestApp, type TestApp, type TestTenant } from '../test-app';
export * from './advisories';
export * from './advisory-records';
export * from './cra';
export * from './packages';
export * from './policies';
export * from './repositories';
export * from './scans';
export * from './tenants';
