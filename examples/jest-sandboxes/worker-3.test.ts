import { isolationSuite } from './isolation';

isolationSuite(3, 30);
