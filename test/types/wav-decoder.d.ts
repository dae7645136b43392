declare module 'wav-decoder' {
  interface AudioData {
    sampleRate: number;
    channelData: Float32Array[];
  }
  export function decode(src: ArrayBuffer | Buffer, opts?: { symmetric?: boolean }): Promise<AudioData>;
}
