import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { EXTMeshoptCompression, KHRDracoMeshCompression, KHRMeshQuantization } from '@gltf-transform/extensions';
import draco3d from 'draco3d';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';

/**
 * Writes the compressed glTF fuzz seeds of test/fixtures/gltf-fuzz from SimpleSkin.gltf (CC0) beside them:
 * SimpleSkin-draco.glb (KHR_draco_mesh_compression, edgebreaker) and SimpleSkin-meshopt.glb
 * (EXT_meshopt_compression with quantization), both with the extension required. Run once by hand:
 * `npx tsx test/fuzz/gltf-make-seeds.ts`; the files are committed.
 */

const dir = join(import.meta.dirname, '..', 'fixtures', 'gltf-fuzz');
await MeshoptEncoder.ready;
const io = new NodeIO().registerExtensions([KHRDracoMeshCompression, EXTMeshoptCompression, KHRMeshQuantization]).registerDependencies({
  'draco3d.encoder': await draco3d.createEncoderModule(),
  'draco3d.decoder': await draco3d.createDecoderModule(),
  'meshopt.encoder': MeshoptEncoder,
  'meshopt.decoder': MeshoptDecoder,
});

async function seed(): Promise<Awaited<ReturnType<NodeIO['read']>>> {
  const doc = await io.read(join(dir, 'SimpleSkin.gltf'));
  const [first, ...rest] = doc.getRoot().listBuffers();
  for (const a of doc.getRoot().listAccessors()) a.setBuffer(first!);
  for (const b of rest) b.dispose();
  return doc;
}

const draco = await seed();
draco.createExtension(KHRDracoMeshCompression).setRequired(true).setEncoderOptions({ method: KHRDracoMeshCompression.EncoderMethod.EDGEBREAKER });
writeFileSync(join(dir, 'SimpleSkin-draco.glb'), await io.writeBinary(draco));
const meshopt = await seed();
meshopt.createExtension(EXTMeshoptCompression).setRequired(true).setEncoderOptions({ method: EXTMeshoptCompression.EncoderMethod.QUANTIZE });
writeFileSync(join(dir, 'SimpleSkin-meshopt.glb'), await io.writeBinary(meshopt));
