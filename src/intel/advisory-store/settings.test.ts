import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';

describe('osv settings', () => {
  it('defaults to no feed, the supported ecosystems and an hourly sync', () => {
    expect(loadConfig({}).osv).toEqual({
      feedUrl: null,
      syncEcosystems: ['npm', 'PyPI', 'Maven', 'Go', 'crates.io', 'RubyGems', 'Packagist', 'NuGet'],
      syncSchedule: '23 * * * *',
    });
  });

  it('accepts spec spellings for OSV ecosystems and a feed URL with a placeholder', () => {
    const config = loadConfig({
      OSV_FEED_URL: 'https://mirror.example.test/osv/{ecosystem}.zip',
      OSV_SYNC_ECOSYSTEMS: 'Cargo, composer,npm,NPM',
      OSV_SYNC_SCHEDULE: '*/30 2-4 * * 1',
    });
    expect(config.osv).toEqual({
      feedUrl: 'https://mirror.example.test/osv/{ecosystem}.zip',
      syncEcosystems: ['crates.io', 'Packagist', 'npm'],
      syncSchedule: '*/30 2-4 * * 1',
    });
  });

  it('names every bad setting', () => {
    try {
      loadConfig({
        OSV_FEED_URL: 'ftp://x',
        OSV_SYNC_ECOSYSTEMS: 'npm,Hackage',
        OSV_SYNC_SCHEDULE: 'hourly',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toContain('OSV_FEED_URL');
      expect(problems).toContain('Hackage');
      expect(problems).toContain('OSV_SYNC_SCHEDULE');
    }
  });
});
