/**
 * Response payload schemas of TPAs and self-onboarding (auditor spec section 7 "Self onboarding"),
 * mirroring `TpaView` of server/services/tpa/tpa.ts and the answers of server/services/sdm-upload (field
 * names of the spec's "SDM upload" and "Mapping validation result").
 */
import { z } from 'zod';

/** A TPA as created or listed. */
export const tpaViewSchema = z.strictObject({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  region: z.string().nullable(),
  selfOnboarded: z.boolean(),
});

/** A TPA with its active master mappings (self-onboarding's TPA choice). */
export const sdmAdministratorSchema = z.strictObject({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  mappings: z.array(z.strictObject({ id: z.number().int(), type: z.string() })),
});

/** Feedback on a new TPA name. */
export const tpaNameCheckSchema = z.strictObject({ status: z.enum(['New', 'Administrator already exist', 'Invalid']), message: z.string() });

/** The validation of one mapping file (`POST /sdm-upload/validate-mappings`, by mapping type or file name). */
export const mappingValidationSchema = z.strictObject({
  valid: z.boolean(),
  error: z.string().nullable(),
  errors: z.array(z.string()),
  totalErrorsFound: z.number().int(),
  maxErrorsNo: z.number().int(),
  fileName: z.string(),
});

/** The mapping validations of a set of files, by mapping type (or file name for a file of no known type). */
export const mappingValidationsSchema = z.record(z.string(), mappingValidationSchema);

/** A file of a self-onboarding upload (spec "SDM upload": uploaded_files). */
export const sdmFileSchema = z.strictObject({
  id: z.number().int(),
  file_name: z.string(),
  status: z.enum(['Uploading', 'Validated', 'Uploaded', 'Error']),
  type: z.enum(['FundRequest', 'SDM']),
  sub_type: z.string().nullable(),
  errors: z.array(z.string()),
  received_at: z.string(),
  /** the import the file became when processed (SDM files) */
  importFileId: z.number().int().nullable(),
});

/** The mapping changes sent with the upload's creation. */
export const touchedMappingsSchema = z.strictObject({
  deletedMappings: z.array(z.string()).optional(),
  newMappings: z.array(z.string()).optional(),
  updatedMappings: z.array(z.string()).optional(),
});

/** A self-onboarding upload (spec "SDM upload"); `validationResults` holds each mapping type's validation and the mapping changes. */
export const sdmUploadSchema = z.strictObject({
  id: z.number().int(),
  status: z.enum(['Created', 'Processing', 'Processed']),
  force_run: z.boolean(),
  administrator: z.strictObject({ id: z.number().int(), code: z.string(), name: z.string() }).nullable(),
  uploaded_files: z.array(sdmFileSchema),
  sdmTypes: z.array(z.string()),
  mappingTypes: z.array(z.string()),
  validationResults: z.object({ touchedMappings: touchedMappingsSchema.nullable().optional() }).catchall(mappingValidationSchema),
});

/** A processed upload, with the warnings of the rows and files that could not be saved. */
export const sdmProcessedSchema = sdmUploadSchema.extend({ warnings: z.array(z.string()) });
