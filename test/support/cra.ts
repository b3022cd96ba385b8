/** Old path of the CRA scenario builders (test/support/scenarios), kept for older tests. */
export { kevCatalogue, kevEntry } from './scenarios/advisory-records';
export { createCraProduct } from './scenarios/cra';
export { tokenWithRole } from './scenarios/tenants';
