import { describe, expect, it } from 'vitest';
import { extractorFixtures, nu } from '../../../test/support/extractor-fixtures';
import { extractMsBuildProject, msbuildProjectExtractor } from './extract-msbuild-project';

const { fixtureInput } = extractorFixtures('nuget');

const CPM_TREE = {
  'Directory.Build.props': 'shared-properties.Directory.Build.props',
  'Directory.Packages.props': 'cpm-root.Directory.Packages.props',
  'src/Directory.Packages.props': 'nested-imports-above.props',
};

describe('nuget/msbuild-project', () => {
  it('claims project files and Directory.Build.props/targets', () => {
    for (const path of [
      'App.csproj',
      'src/Lib/Lib.fsproj',
      'Legacy.vbproj',
      'Directory.Build.props',
      'Directory.Build.targets',
    ]) {
      expect(msbuildProjectExtractor.matches(path)).toBe(true);
    }
    for (const path of [
      'Directory.Packages.props',
      'App.sln',
      'packages.config',
      'App.csproj.user',
    ]) {
      expect(msbuildProjectExtractor.matches(path)).toBe(false);
    }
  });

  it('central versions, VersionOverride, properties, PrivateAssets, Update, Choose; targets skipped', () => {
    expect(
      extractMsBuildProject(fixtureInput('central-managed.csproj', 'src/App/App.csproj', CPM_TREE)),
    ).toEqual({
      dependencies: [
        nu('serilog', '3.1.1', 'runtime', 'resolved', 8),
        nu('microsoft.extensions.http', '[8.0.0, 9.0.0)', 'runtime', 'declared', 9),
        // VersionOverride beats the central 2.1.66 (src/Directory.Packages.props Update)
        nu('dapper', '2.0.151', 'runtime', 'resolved', 10),
        // central version $(PollyVersion) from Directory.Build.props: $(PollyMajor).4.0
        nu('polly', '8.4.0', 'runtime', 'resolved', 11),
        nu('stylecop.analyzers', '1.2.0-beta.556', 'development', 'resolved', 12),
        nu('not.centrally.versioned', null, 'runtime', 'unpinned', 15),
        // Version as a child element; PrivateAssets merged from the later Update item
        nu('awssdk.s3', '3.7.305.22', 'development', 'resolved', 16),
        nu('humanizer.core', '2.*', 'runtime', 'declared', 19),
        nu('some.tool', '$(UnknownToolVersion)', 'development', 'declared', 20),
        // [8.0.4] pins exactly one version
        nu('system.text.json', '8.0.4', 'runtime', 'resolved', 28),
      ],
      errors: [{ line: 21, message: 'PackageReference without Include or Update skipped' }],
    });
  });

  it('nested Directory.Packages.props overrides the outer one it imports', () => {
    const input = {
      ...fixtureInput('central-managed.csproj', 'src/App/App.csproj', CPM_TREE),
      text: '<Project><ItemGroup><PackageReference Include="Dapper" /></ItemGroup></Project>',
    };
    expect(extractMsBuildProject(input).dependencies).toEqual([
      nu('dapper', '2.1.66', 'runtime', 'resolved', 1),
    ]);
  });

  it('without ManagePackageVersionsCentrally the central versions do not apply', () => {
    const input = {
      path: 'App.csproj',
      text: '<Project><ItemGroup><PackageReference Include="Serilog" /></ItemGroup></Project>',
      readFile: (p: string) =>
        p === 'Directory.Packages.props'
          ? '<Project><ItemGroup><PackageVersion Include="Serilog" Version="3.1.1" /></ItemGroup></Project>'
          : null,
    };
    expect(extractMsBuildProject(input).dependencies).toEqual([
      nu('serilog', null, 'runtime', 'unpinned', 1),
    ]);
  });

  it('test project (Microsoft.NET.Test.Sdk): everything is test; conditional properties ignored', () => {
    const input = fixtureInput('test-project.csproj', 'tests/App.Tests/App.Tests.csproj', CPM_TREE);
    expect(extractMsBuildProject(input)).toEqual({
      dependencies: [
        nu('microsoft.net.test.sdk', '17.10.0', 'test', 'resolved', 3),
        // 2.6.6 from the unconditional PropertyGroup, not 9.9.9 from the Debug-only one
        nu('xunit', '2.6.6', 'test', 'resolved', 4),
        nu('coverlet.collector', '6.0.2', 'test', 'resolved', 5),
      ],
      errors: [],
    });
  });

  it.each([
    ['not XML', 'oops', "malformed XML at line 1: char 'o' is not expected."],
    ['a non-MSBuild XML file', '<packages/>', 'not an MSBuild file: root element is <packages>'],
    [
      'a DOCTYPE',
      '<!DOCTYPE Project [<!ENTITY x "y">]><Project/>',
      'DOCTYPE/ENTITY declarations are not allowed; file not parsed',
    ],
  ])('%s → one whole-file error', (_label, text, message) => {
    expect(extractMsBuildProject({ path: 'App.csproj', text, readFile: () => null })).toEqual({
      dependencies: [],
      errors: [{ line: null, message }],
    });
  });
});
