import { routeOf } from '../../src/http/metrics';

describe('routeOf: a route label, a few fixed names, never a sid', () => {
  test.each([
    ['/call/2012-04-24/Accounts/AC1/Calls.json', 'calls'],
    ['/call/2012-04-24/Accounts/AC1/Calls', 'calls'],
    ['/restcomm/2012-04-24/Accounts/AC1/Recordings.xml', 'recordings'],
    ['/call/2012-04-24/Accounts/AC1/Notifications.json', 'notifications'],
    ['/call/2012-04-24/Accounts/AC1/Calls/CA1.json', 'call'],
    ['/call/2012-04-24/Accounts/AC1/Calls/CA1/Recordings.json', 'call_recordings'],
    ['/call/2012-04-24/Accounts/AC1/Calls/CA1/Notifications', 'call_notifications'],
    ['/call/2012-04-24/Accounts/AC1/Recordings/RE1.json', 'recording'],
    ['/call/2012-04-24/Accounts/AC1/Recordings/RE1.wav', 'recording_audio'],
    ['/restcomm/2012-04-24/Accounts/AC1/Recordings/RE1.mp3', 'recording_audio'],
    ['/call/2012-04-24/Accounts/AC1/Notifications/NO1', 'notification'],
    ['/restcomm/2012-04-24/Accounts.json', 'accounts'],
    ['/restcomm/2012-04-24/Accounts/AC1.json', 'account'],
    ['/call/2012-04-24/Accounts/AC1/Conferences.json', 'other'],
    ['/favicon.ico', 'other'],
    ['/__admin/health', 'admin'],
    ['/__admin/ui/app.js', 'admin_ui'],
  ])('%s → %s', (path, route) => {
    expect(routeOf(path)).toBe(route);
  });
});
