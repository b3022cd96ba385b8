#!/usr/bin/env node
// `node cli/driftwatch.js ...` keeps working; the command itself is cli/driftwatch.cjs.
import './driftwatch.cjs';
