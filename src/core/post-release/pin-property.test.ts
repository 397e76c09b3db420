import { describe, expect, it } from 'vitest';
import { findPinnedProperty, setProperty, versionPropertyName } from './pin-property.js';

const props = ['# versions', 'uPortalVersion=5.14.0', 'notificationPortletVersion = 5.0.0', '#notificationPortletVersion=4.0.0', 'otherVersion=5.0.0', ''].join('\n');

describe('distribution pin property', () => {
  it('derives the camelCase key from the artifactId', () => {
    expect(versionPropertyName('notification-portlet')).toBe('notificationPortletVersion');
    expect(versionPropertyName('uPortal-web')).toBe('uPortalWebVersion');
    expect(versionPropertyName('demo')).toBe('demoVersion');
  });

  it('finds the line, and names the candidates when the key is absent', () => {
    expect(findPinnedProperty(props, { artifactId: 'notification-portlet', previous: '5.0.0' })).toEqual({
      ok: true,
      property: { key: 'notificationPortletVersion', value: '5.0.0', line: 3 },
    });
    // A differently cased artifactId still finds its line.
    expect(findPinnedProperty(props, { artifactId: 'notificationportlet', previous: '5.0.0' })).toMatchObject({ ok: true, property: { line: 3 } });
    const missing = findPinnedProperty(props, { artifactId: 'news-portlet', previous: '5.0.0' });
    expect(missing).toEqual({ ok: false, reason: expect.stringContaining('notificationPortletVersion, otherVersion') });
    expect(findPinnedProperty(props, { artifactId: 'x', property: 'otherVersion' })).toMatchObject({ ok: true, property: { line: 5 } });
  });

  it('changes only the value, keeping spacing, comments and CRLF', () => {
    expect(setProperty(props, 'notificationPortletVersion', '5.1.0')).toBe(props.replace('notificationPortletVersion = 5.0.0', 'notificationPortletVersion = 5.1.0'));
    expect(setProperty('a=1\r\nb=2\r\n', 'b', '3')).toBe('a=1\r\nb=3\r\n');
  });
});

describe('in-place diff', () => {
  it('shows the changed line with its context', async () => {
    const { inPlaceDiff } = await import('./line-diff.js');
    expect(inPlaceDiff(props, setProperty(props, 'notificationPortletVersion', '5.1.0'), 'gradle.properties')).toBe(
      [
        '--- a/gradle.properties',
        '+++ b/gradle.properties',
        '@@ -1,5 +1,5 @@',
        ' # versions',
        ' uPortalVersion=5.14.0',
        '-notificationPortletVersion = 5.0.0',
        '+notificationPortletVersion = 5.1.0',
        ' #notificationPortletVersion=4.0.0',
        ' otherVersion=5.0.0',
        '',
      ].join('\n'),
    );
    expect(inPlaceDiff('a\n', 'a\n', 'f')).toBe('');
  });
});
