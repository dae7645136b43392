import request from 'supertest';
import { readData } from '../../src/load';
import { makeEmulator } from '../support/app';

test('smoke', async () => {
  const { accounts, report } = readData('test/fixtures/restcomm/restcomm_with_Data.script');
  console.log(JSON.stringify(report));
  const { app } = makeEmulator({ dialect: 'restcomm', accounts, unchecked: true });
  const auth = `Basic ${Buffer.from('ACae6e420f425248d6a26948c17a9e2acf:77f8c12cc7b8f8423e5c38b035249166').toString('base64')}`;
  const r = await request(app).get('/restcomm/2012-04-24/Accounts/ACae6e420f425248d6a26948c17a9e2acf/Calls.json?PageSize=2').set('Authorization', auth);
  console.log(r.status, JSON.stringify(r.body, null, 1).slice(0, 3000));
  const r2 = await request(app).get('/restcomm/2012-04-24/Accounts/ACae6e420f425248d6a26948c17a9e2acf/Recordings.json?PageSize=2').set('Authorization', auth);
  console.log(r2.status, JSON.stringify(r2.body, null, 1).slice(0, 2000));
});
