/**
 * The validation inputs of a field, by its kind: lengths and a pattern (with a box to try it)
 * for text, a range for numbers and ratings, allowed types and largest size for files, how many
 * choices for checkboxes. Limits follow the stored definition's schema.
 */
import { CheckCircleFilled, CloseCircleFilled } from "@ant-design/icons";
import { Col, Input, InputNumber, Row, Select, Typography } from "antd";
import { type ReactNode, useState } from "react";
import type { FormFieldDef } from "../../../schemas/form-definition";
import type { FieldValidation } from "../../../schemas/forms";
import { patternError } from "./field-rules";
import { PanelItem } from "./panel-item";

const TEXT_KINDS = new Set(["text", "longtext", "email", "phone"]);
const FILE_TYPES = [
  "image/*",
  "application/pdf",
  ".doc",
  ".docx",
  ".xls",
  ".xlsx",
  ".csv",
  "video/*",
  "audio/*",
];

interface ValidationInputsProps {
  field: FormFieldDef;
  problems: Readonly<Record<string, string>>;
  onChange: (validation: FieldValidation) => void;
}

/** The input of `validation.<name>`, with the message there; its input's id is `fb-v-<name>`. */
function Item({
  name,
  label,
  problems,
  children,
}: {
  name: keyof FieldValidation;
  label: string;
  problems: Readonly<Record<string, string>>;
  children: ReactNode;
}) {
  return (
    <PanelItem id={`fb-v-${name}`} label={label} message={problems[`validation.${name}`]}>
      {children}
    </PanelItem>
  );
}

function PatternTry({ pattern }: { pattern: string }) {
  const [sample, setSample] = useState("");
  const broken = patternError(pattern);
  const verdict =
    !sample || broken ? null : safeMatch(pattern, sample) ? (
      <Typography.Text type="success">
        <CheckCircleFilled aria-hidden /> Accepted
      </Typography.Text>
    ) : (
      <Typography.Text type="danger">
        <CloseCircleFilled aria-hidden /> Refused
      </Typography.Text>
    );
  return (
    <PanelItem id="fb-v-try" label="Try the pattern" extra={<span aria-live="polite">{verdict ?? " "}</span>}>
      <Input
        id="fb-v-try"
        value={sample}
        onChange={(e) => setSample(e.target.value)}
        placeholder="Type an answer to test"
        disabled={!pattern || Boolean(broken)}
      />
    </PanelItem>
  );
}

function safeMatch(pattern: string, value: string) {
  try {
    return new RegExp(pattern, "u").test(value);
  } catch {
    return false;
  }
}

/** A number or nothing (a cleared input removes the rule). */
const num = (value: number | null | undefined) => (value === null || value === undefined ? undefined : value);

export function ValidationInputs({ field, problems, onChange }: ValidationInputsProps) {
  const v = field.validation ?? {};
  const set = (patch: Partial<FieldValidation>) => {
    const next: FieldValidation = { ...v, ...patch };
    for (const key of Object.keys(next) as (keyof FieldValidation)[])
      if (next[key] === undefined || next[key] === "") delete next[key];
    onChange(next);
  };
  if (TEXT_KINDS.has(field.kind)) {
    return (
      <>
        <Row gutter={8}>
          <Col span={12}>
            <Item name="minLength" label="Fewest characters" problems={problems}>
              <InputNumber
                id="fb-v-minLength"
                min={0}
                max={1_000_000}
                precision={0}
                value={v.minLength}
                onChange={(x) => set({ minLength: num(x) })}
                style={{ width: "100%" }}
              />
            </Item>
          </Col>
          <Col span={12}>
            <Item name="maxLength" label="Most characters" problems={problems}>
              <InputNumber
                id="fb-v-maxLength"
                min={0}
                max={1_000_000}
                precision={0}
                value={v.maxLength}
                onChange={(x) => set({ maxLength: num(x) })}
                style={{ width: "100%" }}
              />
            </Item>
          </Col>
        </Row>
        <Item name="pattern" label="Pattern (regular expression)" problems={problems}>
          <Input
            id="fb-v-pattern"
            value={v.pattern ?? ""}
            onChange={(e) => set({ pattern: e.target.value })}
            maxLength={500}
            placeholder="e.g. ^[A-Z]{2}[0-9]{4}$"
            className="fb-mono"
            allowClear
          />
        </Item>
        <PatternTry pattern={v.pattern ?? ""} />
      </>
    );
  }
  if (field.kind === "number" || field.kind === "rating") {
    const whole = field.kind === "rating";
    return (
      <Row gutter={8}>
        <Col span={12}>
          <Item name="min" label={whole ? "Lowest rating" : "Minimum"} problems={problems}>
            <InputNumber
              id="fb-v-min"
              precision={whole ? 0 : undefined}
              min={whole ? 0 : undefined}
              value={v.min}
              onChange={(x) => set({ min: num(x) })}
              style={{ width: "100%" }}
            />
          </Item>
        </Col>
        <Col span={12}>
          <Item name="max" label={whole ? "Highest rating" : "Maximum"} problems={problems}>
            <InputNumber
              id="fb-v-max"
              precision={whole ? 0 : undefined}
              min={whole ? 1 : undefined}
              max={whole ? 10 : undefined}
              value={v.max}
              onChange={(x) => set({ max: num(x) })}
              style={{ width: "100%" }}
            />
          </Item>
        </Col>
      </Row>
    );
  }
  if (field.kind === "file") {
    return (
      <>
        <Item name="accept" label="Allowed file types" problems={problems}>
          <Select
            id="fb-v-accept"
            mode="tags"
            value={v.accept ?? []}
            onChange={(accept: string[]) => set({ accept: accept.map((a) => a.trim()).filter(Boolean) })}
            options={FILE_TYPES.map((t) => ({ value: t, label: t }))}
            placeholder="Any type"
            tokenSeparators={[",", " "]}
            aria-label="Allowed file types"
          />
        </Item>
        <Item name="maxSizeMb" label="Largest file (MB)" problems={problems}>
          <InputNumber
            id="fb-v-maxSizeMb"
            min={0.1}
            max={50}
            step={1}
            value={v.maxSizeMb}
            onChange={(x) => set({ maxSizeMb: num(x) })}
            style={{ width: "100%" }}
          />
        </Item>
      </>
    );
  }
  if (field.kind === "checkboxes") {
    return (
      <Row gutter={8}>
        <Col span={12}>
          <Item name="minItems" label="Fewest ticked" problems={problems}>
            <InputNumber
              id="fb-v-minItems"
              min={0}
              precision={0}
              value={v.minItems}
              onChange={(x) => set({ minItems: num(x) })}
              style={{ width: "100%" }}
            />
          </Item>
        </Col>
        <Col span={12}>
          <Item name="maxItems" label="Most ticked" problems={problems}>
            <InputNumber
              id="fb-v-maxItems"
              min={1}
              precision={0}
              value={v.maxItems}
              onChange={(x) => set({ maxItems: num(x) })}
              style={{ width: "100%" }}
            />
          </Item>
        </Col>
      </Row>
    );
  }
  return null;
}

/** Whether a kind has validation inputs. */
export const hasValidationInputs = (kind: FormFieldDef["kind"]) =>
  TEXT_KINDS.has(kind) || kind === "number" || kind === "rating" || kind === "file" || kind === "checkboxes";
