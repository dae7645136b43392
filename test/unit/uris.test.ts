import {
  callSubresourceUri,
  callsListUri,
  callUri,
  DIALECTS,
  fileBaseOf,
  listUri,
  pageUri,
  recordingFileUri,
  recordingUri,
} from '../../src/format/uris';

describe('URIs as production prints them', () => {
  test('the calls list uri has neither /call nor .json', () => {
    expect(callsListUri('AC1')).toBe('/2012-04-24/Accounts/AC1/Calls');
  });
  test('the recordings list uri has both /call and .json', () => {
    expect(listUri('recordings', 'AC1', DIALECTS.spec, '/call')).toBe('/call/2012-04-24/Accounts/AC1/Recordings.json');
    expect(listUri('recordings', 'AC1', DIALECTS.restcomm, '/restcomm')).toBe(
      '/restcomm/2012-04-24/Accounts/AC1/Recordings',
    );
  });
  test('item uris end in .json without /call', () => {
    expect(callUri('AC1', 'ID1-CA2')).toBe('/2012-04-24/Accounts/AC1/Calls/ID1-CA2.json');
    expect(recordingUri('AC1', 'RE1')).toBe('/2012-04-24/Accounts/AC1/Recordings/RE1.json');
    expect(callSubresourceUri('AC1', 'ID1-CA2', 'Notifications')).toBe(
      '/2012-04-24/Accounts/AC1/Calls/ID1-CA2/Notifications.json',
    );
    expect(callSubresourceUri('AC1', 'ID1-CA2', 'Recordings')).toBe(
      '/2012-04-24/Accounts/AC1/Calls/ID1-CA2/Recordings.json',
    );
  });
  test("file_uri is absolute, under the dialect's mount (/call, or /restcomm as Restcomm formats it), ending in .wav", () => {
    expect(recordingFileUri(fileBaseOf('https://x.test/base', DIALECTS.spec), 'AC1', 'RE1')).toBe(
      'https://x.test/base/call/2012-04-24/Accounts/AC1/Recordings/RE1.wav',
    );
    expect(recordingFileUri(fileBaseOf('https://x.test/base', DIALECTS.restcomm), 'AC1', 'RE1')).toBe(
      'https://x.test/base/restcomm/2012-04-24/Accounts/AC1/Recordings/RE1.wav',
    );
  });
  test('page links carry Page and PageSize, and AfterSid only when given', () => {
    expect(pageUri('/u', 0, 50)).toBe('/u?Page=0&PageSize=50');
    expect(pageUri('/u', 3, 10, 'CA9')).toBe('/u?Page=3&PageSize=10&AfterSid=CA9');
  });
});
