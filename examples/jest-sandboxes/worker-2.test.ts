import { isolationSuite } from './isolation';

isolationSuite(2, 30);
