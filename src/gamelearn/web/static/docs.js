// The API documentation, drawn from /openapi.json by this script alone (no Swagger UI from a CDN:
// the app needs nothing from the internet).
"use strict";

function node(tag, text, cls) {
  const el = document.createElement(tag);
  if (text !== undefined) el.textContent = text;
  if (cls) el.className = cls;
  return el;
}

function schemaText(schema, spec) {
  if (!schema) return "";
  if (schema.$ref) {
    const name = schema.$ref.split("/").pop();
    const target = spec.components.schemas[name] || {};
    const props = target.properties || {};
    const required = new Set(target.required || []);
    const fields = Object.entries(props).map(([key, value]) => {
      const type = value.type || (value.anyOf || []).map((v) => v.type).join(" | ") || "object";
      const mark = required.has(key) ? "" : "?";
      return `  "${key}"${mark}: ${type}${value.description ? "  // " + value.description : ""}`;
    });
    return `${name} {\n${fields.join("\n")}\n}`;
  }
  return schema.type || "";
}

async function draw() {
  const spec = await (await fetch("/openapi.json")).json();
  const root = document.getElementById("api");
  root.append(node("p", spec.info.description));
  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const section = node("section", undefined, "learner");
      section.append(node("h2", `${method.toUpperCase()} ${path}`, "operation"));
      if (op.summary) section.append(node("p", op.summary, "summary"));
      if (op.description) section.append(node("p", op.description));
      for (const param of op.parameters || []) {
        section.append(node("p", `${param.in} parameter ${param.name}${param.required ? "" : " (optional)"}`, "caption"));
      }
      const body = op.requestBody && op.requestBody.content["application/json"];
      if (body) section.append(node("pre", schemaText(body.schema, spec)));
      const codes = Object.entries(op.responses || {}).map(([code, r]) => `${code} ${r.description}`);
      section.append(node("p", `Answers: ${codes.join("; ")}`, "caption"));
      root.append(section);
    }
  }
}

draw().catch((error) => { document.getElementById("api").textContent = `Could not read the API description: ${error.message}`; });
